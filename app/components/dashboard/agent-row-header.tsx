import { href, Link } from 'react-router';

/** The name of an agent in a dashboard table row (its row header), linking to its page. */
export function AgentNameLink({ id, name }: { id: string; name: string }) {
  return (
    <Link
      to={href('/agent/:agentId', { agentId: id })}
      className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
    >
      {name}
    </Link>
  );
}

import { href, Link } from 'react-router';

/** The first cell of a dashboard table row about an agent: its name, linking to its page. */
export function AgentRowHeader({ id, name }: { id: string; name: string }) {
  return (
    <th scope="row" className="px-4 py-3 font-medium">
      <Link
        to={href('/agent/:agentId', { agentId: id })}
        className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
      >
        {name}
      </Link>
    </th>
  );
}

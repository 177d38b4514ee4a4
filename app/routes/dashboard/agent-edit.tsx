/**
 * /dashboard/agents/:agentId/edit: the seller edits one of their own agents (a sub-page of My AI
 * Agents, `manage_products`); a new package is a new version. Someone else's agent is a 404, in
 * the loader and the action (app/server/listing.server.ts), and row-level security refuses the
 * write anyway.
 */
import { Link } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ListingForm } from '~/components/dashboard/listing-form';
import { connectionContext, supabaseContext } from '~/context';
import { errorMeta, pageMeta } from '~/lib/meta';
import { listCategories } from '~/server/agents.server';
import { requireSection } from '~/server/guards.server';
import { requireAcceptedPolicies } from '~/server/policies.server';
import { BEFORE_LISTING } from '~/lib/policies';
import { AGENTS_PATH, editPath, moderatedMessage } from '~/lib/listing';
import { listingAction, listingLimits, requireOwnAgent } from '~/server/listing.server';
import { publicSupabase } from '~/server/supabase.server';
import type { Route } from './+types/agent-edit';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  await requireAcceptedPolicies(args.context, BEFORE_LISTING, `${args.url.pathname}${args.url.search}`);
  const [agent, categories] = await Promise.all([
    requireOwnAgent(args.context.get(supabaseContext), viewer.id, args.params.agentId),
    listCategories(publicSupabase(args.context.get(connectionContext))),
  ]);
  return {
    agent,
    categories: categories.map((category) => category.name),
    limits: await listingLimits(args.context, agent.price),
  };
}

export const action = (args: Route.ActionArgs) =>
  listingAction(args, { kind: 'edit', agentIdParam: args.params.agentId });

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  errorMeta(error) ??
  pageMeta(`Edit ${loaderData?.agent.name ?? 'agent'}`, 'Edit your AI agent and publish new versions.');

export default function EditAgentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { agent, categories } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <header>
        <p className="text-sm">
          <Link to={AGENTS_PATH} className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
            My AI Agents
          </Link>
        </p>
        <h1 className="mt-1 text-3xl font-bold">Edit {agent.name}</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          Status: {agent.moderationReason ? 'unpublished by moderation' : agent.status}.{' '}
          <Link to={`/agent/${agent.id}`} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
            View the agent page
          </Link>
        </p>
        {agent.moderationReason ? (
          <p className="mt-2 text-slate-700 dark:text-slate-300">{moderatedMessage(agent.moderationReason)}</p>
        ) : null}
      </header>
      <ListingForm
        key={agent.id}
        action={editPath(agent.id)}
        categories={categories}
        limits={loaderData.limits}
        latestVersion={agent.latestVersion}
        publishable={!agent.moderationReason}
        initial={{
          name: agent.name,
          description: agent.description,
          category: agent.category,
          price: agent.price.toFixed(2),
          activationLimit: agent.activationLimit === null ? '' : String(agent.activationLimit),
          features: agent.features.join('\n'),
          thumbnailUrl: agent.thumbnailUrl,
          images: agent.images,
        }}
        result={actionData}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/**
 * /dashboard/agents (`manage_products`): the seller's agents in every status, newest first and
 * paged (`?page=`, 25 a page, the dashboard lists' Pager), with price, sales, rating and last
 * version, and Edit / Publish / Unpublish / Archive (POST forms to the page they are on, the
 * seller's own client: app/server/listing.server.ts). Empty: a pointer to Upload.
 */
import { Package } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { AgentNameLink } from '~/components/dashboard/agent-row-header';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { EmptyState } from '~/components/page-states';
import { buttonClass } from '~/components/ui/button';
import { DataTable, type DataColumn } from '~/components/ui/data-table';
import { FormMessage } from '~/components/ui/field';
import { Pager } from '~/components/ui/pager';
import { supabaseContext } from '~/context';
import { NO_REVIEWS_YET, formatRating } from '~/lib/agents';
import { formatAgo, formatMoney } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import { pageParam } from '~/lib/pagination';
import { requireSection } from '~/server/guards.server';
import { agentsHref, editPath, statusActions, UPLOAD_PATH, type AgentStatus, type StatusIntent } from '~/lib/listing';
import { changeStatusAction, listSellerAgents, type SellerAgent } from '~/server/listing.server';
import type { Route } from './+types/agents';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const agents = await listSellerAgents(args.context.get(supabaseContext), {
    sellerId: viewer.id,
    page: pageParam(args.url.searchParams.get('page')),
  });
  return { agents };
}

export const action = (args: Route.ActionArgs) => changeStatusAction(args);

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('My AI Agents', 'The AI agents you sell: drafts, published and archived.');

const STATUS_LABEL: Record<AgentStatus, string> = { draft: 'Draft', published: 'Published', archived: 'Archived' };
const STATUS_CLASS: Record<AgentStatus, string> = {
  draft: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
  published: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200',
  archived: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
};

const ACTION_LABEL: Record<StatusIntent, string> = { publish: 'Publish', unpublish: 'Unpublish', archive: 'Archive' };

export default function MyAgentsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { agents } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">My AI Agents</h1>
          <p className="mt-1 text-slate-700 dark:text-slate-300">Every agent you sell, whatever its status.</p>
        </div>
        <Link to={UPLOAD_PATH} className={buttonClass('primary')}>
          Upload Agent
        </Link>
      </header>
      {actionData?.message ? (
        <FormMessage kind={actionData.ok ? 'success' : 'error'} message={actionData.message} />
      ) : null}
      {agents.total === 0 ? (
        <EmptyState
          icon={<Package aria-hidden="true" className="size-10" />}
          title="No agents yet"
          message="Upload your first AI agent: describe it, add its package, and publish it to the marketplace."
        >
          <Link to={UPLOAD_PATH} className={`${buttonClass('primary')} mt-6`}>
            Upload an agent
          </Link>
        </EmptyState>
      ) : (
        <div>
          <DataTable
            caption="Your agents"
            columns={agentColumns(agentsHref(agents.page))}
            rows={agents.rows}
            rowKey={(agent) => agent.id}
          />
          <Pager label="Agent pages" page={agents.page} pageCount={agents.pageCount} />
        </div>
      )}
    </div>
  );
}

function agentColumns(action: string): DataColumn<SellerAgent>[] {
  return [
    { header: 'Agent', rowHeader: true, cell: (agent) => <AgentNameLink id={agent.id} name={agent.name} /> },
    {
      header: 'Status',
      cell: (agent) =>
        agent.moderationReason ? (
          <>
            <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASS.archived}`}>
              Unpublished by moderation
            </span>
            <span className="mt-1 block max-w-xs text-xs text-slate-700 dark:text-slate-300">
              Moderation reason: {agent.moderationReason}
            </span>
          </>
        ) : (
          <span
            className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASS[agent.status]}`}
          >
            {STATUS_LABEL[agent.status]}
          </span>
        ),
    },
    { header: 'Price', numeric: true, cell: (agent) => formatMoney(agent.price) },
    { header: 'Sales', numeric: true, cell: (agent) => agent.sales },
    {
      header: 'Rating',
      cell: (agent) =>
        agent.reviewCount
          ? `${formatRating(agent.avgRating, agent.reviewCount)} (${agent.reviewCount})`
          : NO_REVIEWS_YET,
    },
    {
      header: 'Last version',
      cell: (agent) =>
        agent.lastVersion ? (
          <>
            {agent.lastVersion}
            {agent.lastVersionAt ? (
              <span className="block text-xs text-slate-600 dark:text-slate-400" suppressHydrationWarning>
                {formatAgo(agent.lastVersionAt)}
              </span>
            ) : null}
          </>
        ) : (
          'No package'
        ),
    },
    { header: 'Actions', cell: (agent) => <AgentActions agent={agent} action={action} /> },
  ];
}

function AgentActions({ agent, action }: { agent: SellerAgent; action: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('agentId') === agent.id;
  return (
    <div className="flex flex-wrap justify-end gap-2 md:justify-start">
      <Link to={editPath(agent.id)} className={buttonClass('secondary', 'sm')} aria-label={`Edit ${agent.name}`}>
        Edit
      </Link>
      {statusActions(agent.status, agent.moderationReason !== null).map((intent) => (
        <Form key={intent} method="post" action={action}>
          <input type="hidden" name="agentId" value={agent.id} />
          <button
            type="submit"
            name="intent"
            value={intent}
            disabled={busy}
            aria-label={`${ACTION_LABEL[intent]} ${agent.name}`}
            className={buttonClass(intent === 'archive' ? 'ghost' : 'secondary', 'sm')}
          >
            {ACTION_LABEL[intent]}
          </button>
        </Form>
      ))}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/**
 * Messages: the signed-in user's conversations, newest first, with what is unread (ADR 071).
 * Two entries draw this page: '/dashboard/messages' (communicate_customers: sellers and admins)
 * and '/dashboard/conversations' (a buyer's). Admins also see the reported conversations they
 * may read until they close the report. New messages show without a reload (polling, JavaScript
 * on) and with one (off).
 */
import { Flag, MessageSquare } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '~/components/dashboard/status-badge';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ReportReason } from '~/components/messages/message-parts';
import { EmptyState } from '~/components/page-states';
import { buttonClass } from '~/components/ui/button';
import { Pager } from '~/components/ui/pager';
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { DELETED_ACCOUNT, formatDateTime } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import { pageParam } from '~/lib/pagination';
import { hasPermission } from '~/lib/permissions';
import { pluralize } from '~/lib/plural';
import { usePolling } from '~/lib/use-polling';
import { requireSection } from '~/server/guards.server';
import {
  listConversations,
  listOpenReports,
  type ConversationSummary,
  type OpenReport,
} from '~/server/messages.server';
import type { Route } from './+types/messages';

/** How often the list looks for new messages while it is open (JavaScript on). */
const POLL_MS = 10_000;

export async function loader(args: Route.LoaderArgs) {
  const { viewer, section } = requireSection(args);
  const client = args.context.get(supabaseContext);
  const [conversations, reports] = await Promise.all([
    listConversations(client, viewer.id, pageParam(args.url.searchParams.get('page'))),
    hasPermission(viewer.role, 'moderate_content') ? listOpenReports(client) : Promise.resolve(null),
  ]);
  return {
    conversations,
    reports,
    basePath: section.path,
    forSellers: hasPermission(viewer.role, 'communicate_customers'),
    timeZone: timeZoneFromCookieHeader(args.request.headers.get('cookie')),
  };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Messages', 'Your conversations with buyers and sellers on AgentMarket.');

export default function MessagesPage({ loaderData }: Route.ComponentProps) {
  const { conversations, reports, basePath, forSellers, timeZone } = loaderData;
  usePolling(POLL_MS);
  const unread = conversations.rows.filter((row) => row.unread > 0).length;
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Messages</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          {forSellers
            ? 'Your conversations with the buyers of your agents, and with the sellers you asked, newest first.'
            : 'Your conversations with sellers, newest first. Ask a seller a question from their agent’s page.'}
        </p>
      </header>

      {reports ? <ReportedConversations reports={reports} basePath={basePath} timeZone={timeZone} /> : null}

      {conversations.total === 0 ? (
        <EmptyState
          icon={<MessageSquare aria-hidden="true" className="size-10" />}
          title="No conversations yet"
          message={
            forSellers
              ? 'When a buyer asks about one of your agents, the conversation appears here.'
              : 'Questions you ask a seller about an agent, and their answers, appear here.'
          }
        >
          <Link to="/marketplace" className={`${buttonClass('primary')} mt-6`}>
            Browse Marketplace
          </Link>
        </EmptyState>
      ) : (
        <section aria-labelledby="conversations-title" className="flex flex-col gap-3">
          <h2 id="conversations-title" className="text-xl font-semibold">
            Conversations ({conversations.total})
            {unread > 0 ? (
              <span className="ml-2 text-base font-medium text-slate-700 dark:text-slate-300">
                · {pluralize(unread, 'conversation')} with new messages
              </span>
            ) : null}
          </h2>
          <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
            {conversations.rows.map((row) => (
              <ConversationRow key={row.id} row={row} href={`${basePath}/${row.id}`} timeZone={timeZone} />
            ))}
          </ul>
          <Pager
            label="Conversation pages"
            page={conversations.page}
            pageCount={conversations.pageCount}
            previousLabel="Newer"
            nextLabel="Older"
          />
        </section>
      )}
    </div>
  );
}

function ConversationRow({ row, href, timeZone }: { row: ConversationSummary; href: string; timeZone: string }) {
  const other = row.otherName ?? DELETED_ACCOUNT;
  const about = row.agentName ? `about ${row.agentName}` : 'about an agent no longer listed';
  return (
    <li>
      <Link
        to={href}
        className="flex flex-wrap items-start gap-x-4 gap-y-1 p-4 hover:bg-slate-50 focus-visible:bg-slate-50 dark:hover:bg-slate-900 dark:focus-visible:bg-slate-900"
      >
        <span className="min-w-0 flex-[1_1_14rem]">
          <span className={`block ${row.unread > 0 ? 'font-bold' : 'font-semibold'}`}>
            {other}
            <span className="font-normal text-slate-700 dark:text-slate-300">
              {' '}
              · {row.role === 'seller' ? 'your customer' : 'seller'}, {about}
            </span>
          </span>
          <span className="mt-1 block truncate text-sm text-slate-700 dark:text-slate-300">
            {row.lastMessage === null ? 'No messages yet' : `${row.lastFromMe ? 'You: ' : ''}${row.lastMessage}`}
          </span>
        </span>
        <span className="flex flex-wrap items-center gap-2 text-sm">
          {row.blocked ? <Badge tone="slate">Blocked</Badge> : null}
          {row.unread > 0 ? <Badge>{pluralize(row.unread, 'new message')}</Badge> : null}
          <time dateTime={row.lastMessageAt} className="text-slate-700 dark:text-slate-300">
            {formatDateTime(row.lastMessageAt, timeZone)}
          </time>
        </span>
      </Link>
    </li>
  );
}

function ReportedConversations({
  reports,
  basePath,
  timeZone,
}: {
  reports: OpenReport[];
  basePath: string;
  timeZone: string;
}) {
  return (
    <section
      aria-labelledby="reported-title"
      className="flex flex-col gap-3 rounded-xl border border-amber-300 p-4 dark:border-amber-700"
    >
      <h2 id="reported-title" className="flex items-center gap-2 text-xl font-semibold">
        <Flag aria-hidden="true" className="size-5" />
        Reported conversations ({reports.length})
      </h2>
      {reports.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">No conversation is waiting for an administrator.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {reports.map((report) => (
            <li key={report.id} className="rounded-lg bg-slate-50 p-3 dark:bg-slate-900">
              <p>
                <span className="font-semibold">{report.reporterName ?? DELETED_ACCOUNT}</span> reported the
                conversation between {report.buyerName ?? DELETED_ACCOUNT} (buyer) and{' '}
                {report.sellerName ?? DELETED_ACCOUNT} (seller)
                {report.agentName ? ` about ${report.agentName}` : ''} on{' '}
                <time dateTime={report.createdAt}>{formatDateTime(report.createdAt, timeZone)}</time>:
              </p>
              <ReportReason>{report.reason}</ReportReason>
              <Link to={`${basePath}/${report.conversationId}`} className={`${buttonClass('secondary', 'sm')} mt-2`}>
                Read the conversation
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

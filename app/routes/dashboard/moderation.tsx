/**
 * /dashboard/moderation (admins, moderate_content): published agents and agents unpublished by a
 * moderator (search by name, `?q=`, `?page=`), each with Unpublish or Restore and a reason its
 * seller reads; reviews (search by text or agent, `?rq=`, `?rpage=`) with Remove and a reason.
 * Forms open through the URL (`?moderate=<agentId>`, `?review=<reviewId>`). The latest
 * moderation entries of the audit log follow.
 */
import { ListRow } from '~/components/dashboard/list-row';
import { Link } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ActionPanel, AdminSearchForm, AuditLog, ReasonForm } from '~/components/dashboard/admin-parts';
import { Badge } from '~/components/dashboard/status-badge';
import { buttonClass } from '~/components/ui/button';
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatDate } from '~/lib/dashboard-format';
import { fieldValue, type FormResult } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { MAX_ADMIN_SEARCH, parseIdParam } from '~/schemas/admin';
import { adminSearch, listAudit } from '~/server/admin.server';
import {
  listModeratableAgents,
  listReviews,
  moderationAction,
  type ModeratedAgentRow,
  type ReviewRow,
} from '~/server/moderation.server';
import { pageParam } from '~/lib/pagination';
import { requireSection } from '~/server/guards.server';
import { Pager } from '~/components/ui/pager';
import { useHrefWith } from '~/lib/href-with';
import type { Route } from './+types/moderation';

export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  const params = args.url.searchParams;
  const search = adminSearch(params.get('q'));
  const reviewSearch = adminSearch(params.get('rq'));
  const client = args.context.get(supabaseContext);
  const [agents, reviews, audit] = await Promise.all([
    listModeratableAgents(client, { search, page: pageParam(params.get('page')) }),
    listReviews(client, { search: reviewSearch, page: pageParam(params.get('rpage')) }),
    listAudit(client, ['agent', 'review']),
  ]);
  return {
    agents,
    reviews,
    audit,
    search,
    reviewSearch,
    moderate: parseIdParam(params.get('moderate')),
    review: parseIdParam(params.get('review')),
    timeZone: timeZoneFromCookieHeader(args.request.headers.get('cookie')),
  };
}

export const action = (args: Route.ActionArgs) => moderationAction(args);

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Content Moderation', 'Unpublish or restore agents and remove reviews.');

const EMPTY_LIST_CLASS =
  'rounded-xl border border-slate-200 p-6 text-slate-700 dark:border-slate-700 dark:text-slate-300';
const LIST_CLASS =
  'divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700';

export default function ModerationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { agents, reviews, audit, search, reviewSearch, moderate, review, timeZone } = loaderData;
  const hrefWith = useHrefWith();
  const keepReviews: Record<string, string> = reviewSearch ? { rq: reviewSearch } : {};
  const keepAgents: Record<string, string> = search ? { q: search } : {};
  return (
    <div className="flex flex-col gap-8">
      <header>
        <h1 className="text-3xl font-bold">Content Moderation</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          Unpublish an agent or remove a review with a reason. A seller reads the reason on their agent list; buyers
          keep the agents they bought. Every change is written to the audit log.
        </p>
      </header>
      <section aria-labelledby="agents-list" className="flex flex-col gap-3">
        <h2 id="agents-list" className="text-xl font-semibold">
          {search
            ? `Agents matching “${search}” (${agents.total})`
            : `Published and unpublished agents (${agents.total})`}
        </h2>
        <AdminSearchForm
          label="Search agents by name"
          name="q"
          pageName="page"
          value={search}
          maxLength={MAX_ADMIN_SEARCH}
          keep={keepReviews}
        />
        {agents.rows.length === 0 ? (
          <p className={EMPTY_LIST_CLASS}>{search ? 'No agents match this search.' : 'No agents to moderate.'}</p>
        ) : (
          <ul className={LIST_CLASS}>
            {agents.rows.map((agent) => (
              <li key={agent.id} aria-label={agent.name}>
                <AgentSummary
                  agent={agent}
                  actionHref={moderate === agent.id ? null : hrefWith({ moderate: agent.id })}
                />
                {moderate === agent.id ? (
                  <ActionPanel label={`Moderate ${agent.name}`} closeHref={hrefWith({ moderate: null })}>
                    <AgentForm
                      agent={agent}
                      action={hrefWith({ moderate: agent.id })}
                      result={fieldValue(actionData, 'agentId') === agent.id ? actionData : null}
                    />
                  </ActionPanel>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <Pager label="Agent pages" page={agents.page} pageCount={agents.pageCount} />
      </section>
      <section aria-labelledby="reviews-list" className="flex flex-col gap-3">
        <h2 id="reviews-list" className="text-xl font-semibold">
          {reviewSearch ? `Reviews matching “${reviewSearch}” (${reviews.total})` : `Reviews (${reviews.total})`}
        </h2>
        <AdminSearchForm
          label="Search reviews by text or agent"
          name="rq"
          pageName="rpage"
          value={reviewSearch}
          maxLength={MAX_ADMIN_SEARCH}
          keep={keepAgents}
        />
        {reviews.rows.length === 0 ? (
          <p className={EMPTY_LIST_CLASS}>{reviewSearch ? 'No reviews match this search.' : 'No reviews yet.'}</p>
        ) : (
          <ul className={LIST_CLASS}>
            {reviews.rows.map((row) => (
              <li key={row.id} aria-label={`Review of ${row.agentName} by ${row.author}`}>
                <ReviewSummary
                  review={row}
                  timeZone={timeZone}
                  removeHref={review === row.id ? null : hrefWith({ review: row.id })}
                />
                {review === row.id ? (
                  <ActionPanel label={`Remove the review by ${row.author}`} closeHref={hrefWith({ review: null })}>
                    <ReasonForm
                      title={`Remove the review of ${row.agentName} by ${row.author}`}
                      action={hrefWith({ review: row.id })}
                      intent="remove-review"
                      hidden={{ reviewId: row.id }}
                      submitLabel="Remove review"
                      hint="Kept in the audit log with the review's text."
                      result={fieldValue(actionData, 'reviewId') === row.id ? actionData : null}
                    />
                  </ActionPanel>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <Pager label="Review pages" page={reviews.page} pageCount={reviews.pageCount} pageName="rpage" />
      </section>
      <AuditLog entries={audit} timeZone={timeZone} empty="No moderation yet." />
    </div>
  );
}

function AgentSummary({ agent, actionHref }: { agent: ModeratedAgentRow; actionHref: string | null }) {
  const moderated = agent.moderationReason !== null;
  return (
    <ListRow
      details={
        <>
          <p className="font-semibold">
            <Link to={`/agent/${agent.id}`} className="hover:underline">
              {agent.name}
            </Link>
          </p>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Sold by {agent.seller}
            {agent.sellerBanned ? ' (banned: hidden from the marketplace)' : null}
          </p>
          {moderated ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">Moderation reason: {agent.moderationReason}</p>
          ) : null}
        </>
      }
    >
      <Badge tone={moderated ? 'amber' : 'brand'}>{moderated ? 'Unpublished by moderation' : 'Published'}</Badge>
      {actionHref ? (
        <Link to={actionHref} preventScrollReset className={buttonClass('secondary', 'sm')}>
          {moderated ? 'Restore' : 'Unpublish'}
          <span className="sr-only"> {agent.name}</span>
        </Link>
      ) : null}
    </ListRow>
  );
}

function AgentForm({
  agent,
  action,
  result,
}: {
  agent: ModeratedAgentRow;
  action: string;
  result: FormResult | null | undefined;
}) {
  const moderated = agent.moderationReason !== null;
  return (
    <ReasonForm
      title={moderated ? `Restore ${agent.name}` : `Unpublish ${agent.name}`}
      action={action}
      intent={moderated ? 'restore' : 'unpublish'}
      hidden={{ agentId: agent.id }}
      submitLabel={moderated ? 'Restore agent' : 'Unpublish agent'}
      variant={moderated ? 'primary' : 'danger'}
      hint={
        moderated
          ? 'The agent is published again.'
          : 'The agent leaves the marketplace; its seller reads the reason and cannot publish it again.'
      }
      result={result}
    />
  );
}

function ReviewSummary({
  review,
  timeZone,
  removeHref,
}: {
  review: ReviewRow;
  timeZone: string;
  removeHref: string | null;
}) {
  return (
    <ListRow
      align="start"
      details={
        <>
          <p className="font-semibold">
            <Link to={`/agent/${review.agentId}`} className="hover:underline">
              {review.agentName}
            </Link>
          </p>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {review.rating} out of 5 by {review.author} on{' '}
            <time dateTime={review.createdAt}>{formatDate(review.createdAt, timeZone)}</time>
          </p>
          {review.text ? <p className="mt-1 text-sm break-words">{review.text}</p> : null}
        </>
      }
    >
      {removeHref ? (
        <Link to={removeHref} preventScrollReset className={buttonClass('secondary', 'sm')}>
          Remove<span className="sr-only"> the review by {review.author}</span>
        </Link>
      ) : null}
    </ListRow>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

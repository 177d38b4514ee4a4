import { ShieldAlert } from 'lucide-react';
import { data, Link } from 'react-router';
import { ReviewForm } from '~/components/agents/review-form';
import { Breadcrumb } from '~/components/breadcrumb';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { buttonClass } from '~/components/ui/button';
import { supabaseContext } from '~/context';
import { reviewHref } from '~/lib/collection';
import { errorMeta, pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { REVIEW_MESSAGES, ReviewSchema } from '~/schemas/review';
import { agentNotFound, getVisibleAgent, ownsAgent, parseAgentId } from '~/server/agent-detail.server';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requirePermission } from '~/server/guards.server';
import { getOwnReview, saveReview } from '~/server/reviews.server';
import type { Route } from './+types/agent-review';

/** Where saving leads: `?returnTo=` (same-origin paths only), else the agent page's reviews. */
function returnPath(url: URL, agentId: string): string {
  return safeRedirectPath(url.searchParams.get('returnTo'), `/agent/${agentId}#reviews`);
}

/**
 * Only the buyer of a completed purchase may rate (checked here, in the action, and by the
 * database's `guard_review`). Signed out: sign in, then back here.
 */
export async function loader(args: Route.LoaderArgs) {
  const viewer = requirePermission(args, 'rate_products');
  const agentId = parseAgentId(args.params.agentId);
  const supabase = args.context.get(supabaseContext);
  const [agent, owned, review] = await Promise.all([
    getVisibleAgent(supabase, agentId),
    ownsAgent(supabase, viewer.id, agentId),
    getOwnReview(supabase, viewer.id, agentId),
  ]);
  if (!agent) agentNotFound();
  const returnTo = returnPath(args.url, agentId);
  return data(
    {
      agent: { id: agent.id, name: agent.name },
      mayRate: owned,
      review: owned ? review : null,
      returnTo,
      // The form posts to this page's own URL, so after an error (without JavaScript too) the
      // page it comes back on still knows where to return.
      formAction: reviewHref(agentId, args.url.searchParams.has('returnTo') ? returnTo : undefined),
    },
    { status: owned ? 200 : 403 },
  );
}

export async function action(args: Route.ActionArgs) {
  const viewer = requirePermission(args, 'rate_products');
  const agentId = parseAgentId(args.params.agentId);
  const submission = parseForm(await args.request.formData(), ReviewSchema);
  if (submission.status !== 'success') return formError(submission);
  const refuse = () => formError(submission, { message: REVIEW_MESSAGES.notBuyer, status: 403 });

  const supabase = args.context.get(supabaseContext);
  if (!(await ownsAgent(supabase, viewer.id, agentId))) return refuse();
  const { rating, review } = submission.value;
  const saved = await saveReview(supabase, { buyerId: viewer.id, agentId, rating, review });
  if (!saved.ok) return refuse();

  return redirectWithFlash(args.request, returnPath(args.url, agentId), {
    kind: 'success',
    message: REVIEW_MESSAGES.saved,
  });
}

export function meta({ loaderData, error }: Route.MetaArgs) {
  const failed = errorMeta(error);
  if (failed) return failed;
  const name = loaderData?.agent.name ?? 'this agent';
  return pageMeta(`Rate ${name}`, `Rate and review ${name} on AgentMarket.`);
}

export default function AgentReviewPage({ loaderData, actionData }: Route.ComponentProps) {
  const { agent, mayRate, review, returnTo, formAction } = loaderData;
  const agentPath = `/agent/${agent.id}`;
  return (
    <div className="container-page flex max-w-2xl flex-col gap-6 py-10">
      <Breadcrumb
        trail={[
          { to: '/marketplace', label: 'Marketplace' },
          { to: agentPath, label: agent.name },
        ]}
        current="Rate"
      />
      <header>
        <h1 className="text-3xl font-bold">Rate {agent.name}</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          {review
            ? 'You rated this agent before: change your stars or your review and save.'
            : 'Tell other buyers how this agent works for you.'}
        </p>
      </header>
      {mayRate ? (
        <ReviewForm action={formAction} current={review} cancelHref={returnTo} result={actionData} />
      ) : (
        <div className="flex flex-col items-start gap-4">
          <p
            role="alert"
            className="flex items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          >
            <ShieldAlert aria-hidden="true" className="size-5 shrink-0" />
            {REVIEW_MESSAGES.notBuyer}
          </p>
          <Link to={agentPath} className={buttonClass('primary')}>
            View {agent.name}
          </Link>
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

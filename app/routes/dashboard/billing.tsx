import { redirect } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { BillingHistory, PaymentMethods, SecurityNote, SubscriptionPanel } from '~/components/dashboard/billing-parts';
import { SampleDataNotice } from '~/components/dashboard/status-badge';
import { connectionContext, supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { parseReviewsPage } from '~/lib/agent-detail';
import { formatDate } from '~/lib/dashboard-format';
import { tierById } from '~/lib/membership';
import { SAMPLE_PAYMENT_METHODS } from '~/lib/membership-sample-billing';
import { errorMeta, pageMeta } from '~/lib/meta';
import { PLAN_REFUSALS } from '~/lib/subscriptions';
import { listBillingHistory } from '~/server/billing-history.server';
import { CancellationSchema } from '~/schemas/subscription';
import { setFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection } from '~/server/guards.server';
import { paymentProvider } from '~/server/payments/index.server';
import { liveSubscription, setCancellation } from '~/server/subscriptions.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/billing';

const NOTE_ID = 'billing-sample-note';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const client = args.context.get(supabaseContext);
  const [live, history] = await Promise.all([
    liveSubscription(client, viewer.id),
    listBillingHistory(client, parseReviewsPage(args.url.searchParams.get('page'))),
  ]);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const subscription = live
    ? {
        plan: tierById(live.tier).name,
        amount: tierById(live.tier).monthlyPrice,
        status: live.status,
        periodEnd: formatDate(live.periodEnd, timeZone),
        cancelAtPeriodEnd: live.cancelAtPeriodEnd,
        scheduledPlan: live.scheduledTier ? tierById(live.scheduledTier).name : null,
        // A scheduled downgrade: Change Plan offers to stay; otherwise the other paid plan.
        changeTo: live.scheduledTier
          ? live.tier
          : live.tier === 'premium'
            ? ('enterprise' as const)
            : ('premium' as const),
      }
    : null;
  // Payment methods are not built yet: the specification's sample data, labelled.
  return { subscription, paymentMethods: SAMPLE_PAYMENT_METHODS, history, timeZone };
}

/** Cancel Subscription (at the end of the period) and its undo, Keep Subscription. */
export async function action(args: Route.ActionArgs) {
  const { viewer } = requireSection(args);
  const submission = parseForm(await args.request.formData(), CancellationSchema);
  if (submission.status !== 'success') return formError(submission);
  const cancel = submission.value.intent === 'cancel';
  const outcome = await setCancellation(createServiceSupabase(args.context.get(connectionContext)), paymentProvider(), {
    userId: viewer.id,
    cancel,
  });
  if (!outcome.ok) return formError(submission, { message: PLAN_REFUSALS[outcome.refusal], status: 409 });
  const end = formatDate(outcome.subscription.periodEnd, timeZoneFromCookieHeader(args.request.headers.get('cookie')));
  const plan = tierById(outcome.subscription.tier).name;
  const message = cancel
    ? `Subscription cancelled. You keep ${plan} until ${end}.`
    : `Your ${plan} subscription continues. Next billing date: ${end}.`;
  return redirect(args.url.pathname, {
    status: 303,
    headers: { 'Set-Cookie': await setFlash(args.request, { kind: 'success', message }) },
  });
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Billing', 'Your AgentMarket subscription, payment methods and billing history.');

export default function BillingPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Billing</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">Manage your subscription and payment methods.</p>
      </header>
      <SubscriptionPanel subscription={loaderData.subscription} result={actionData} />
      <SampleDataNotice id={NOTE_ID}>
        <strong>Sample data.</strong> Saved payment methods are not available yet: the payment methods below are
        examples, and their actions are not available yet.
      </SampleDataNotice>
      <PaymentMethods methods={loaderData.paymentMethods} noteId={NOTE_ID} />
      <BillingHistory history={loaderData.history} timeZone={loaderData.timeZone} />
      <SecurityNote />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

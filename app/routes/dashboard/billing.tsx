import { GeneralErrorBoundary } from '~/components/error-boundary';
import { BillingHistory, SecurityNote } from '~/components/dashboard/billing-history';
import { PaymentMethods } from '~/components/dashboard/payment-methods';
import { SubscriptionPanel } from '~/components/dashboard/subscription-panel';
import { connectionContext, supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { pageParam } from '~/lib/pagination';
import { formatDate } from '~/lib/dashboard-format';
import { tierById } from '~/lib/membership';
import { fieldValue, type FormResult } from '~/lib/form-result';
import { formatExpiry, isPaymentMethodIntent } from '~/lib/payment-methods';
import { errorMeta, pageMeta } from '~/lib/meta';
import { graceEnd, PLAN_REFUSALS } from '~/lib/subscriptions';
import { PaymentMethodActionSchema } from '~/schemas/payment-method';
import { listBillingHistory } from '~/server/billing-history.server';
import { CancellationSchema } from '~/schemas/subscription';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection } from '~/server/guards.server';
import {
  editPaymentMethodExpiry,
  listPaymentMethods,
  PAYMENT_METHOD_REFUSALS,
  removePaymentMethod,
  setDefaultPaymentMethod,
} from '~/server/payment-methods.server';
import { paymentProvider } from '~/server/payments/index.server';
import { liveSubscription, setCancellation } from '~/server/subscriptions.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/billing';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const client = args.context.get(supabaseContext);
  const [live, paymentMethods, history] = await Promise.all([
    liveSubscription(client, viewer.id),
    listPaymentMethods(client, viewer.id),
    listBillingHistory(client, pageParam(args.url.searchParams.get('page'))),
  ]);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const subscription = live
    ? {
        plan: tierById(live.tier).name,
        amount: tierById(live.tier).monthlyPrice,
        status: live.status,
        periodEnd: formatDate(live.periodEnd, timeZone),
        cancelAtPeriodEnd: live.cancelAtPeriodEnd,
        graceEnds: live.status === 'past_due' ? formatDate(graceEnd(live.periodEnd).toISOString(), timeZone) : null,
        scheduledPlan: live.scheduledTier ? tierById(live.scheduledTier).name : null,
        // A scheduled downgrade: Change Plan offers to stay; otherwise the other paid plan.
        changeTo: live.scheduledTier
          ? live.tier
          : live.tier === 'premium'
            ? ('enterprise' as const)
            : ('premium' as const),
      }
    : null;
  return { subscription, paymentMethods, history, timeZone };
}

/** Back to Billing with a message (POST → redirect → GET). */
async function done(args: Route.ActionArgs, message: string) {
  return redirectWithFlash(args.request, '/dashboard/billing', { kind: 'success', message });
}

/** Edit (the expiry), Make Default and Remove on one saved card. */
async function paymentMethodAction(args: Route.ActionArgs, userId: string, form: FormData) {
  const submission = parseForm(form, PaymentMethodActionSchema);
  if (submission.status !== 'success') return formError(submission);
  const service = createServiceSupabase(args.context.get(connectionContext));
  const { value } = submission;
  const methodId = value.methodId;
  const outcome =
    value.intent === 'edit-expiry'
      ? await editPaymentMethodExpiry(service, paymentProvider(), { userId, methodId, ...value.expiry })
      : value.intent === 'make-default'
        ? await setDefaultPaymentMethod(service, { userId, methodId })
        : await removePaymentMethod(service, paymentProvider(), { userId, methodId });
  if (!outcome.ok) return formError(submission, PAYMENT_METHOD_REFUSALS[outcome.refusal]);
  const { label, expMonth, expYear } = outcome.method;
  return done(
    args,
    value.intent === 'edit-expiry'
      ? `${label} now expires ${formatExpiry(expMonth, expYear)}.`
      : value.intent === 'make-default'
        ? `${label} is now your default payment method.`
        : `${label} was removed.`,
  );
}

/**
 * Cancel Subscription (at the end of the period) and its undo, Keep Subscription; and the forms
 * on saved payment methods (told apart by their `intent`).
 */
export async function action(args: Route.ActionArgs) {
  const { viewer } = requireSection(args);
  const form = await args.request.formData();
  if (isPaymentMethodIntent(form.get('intent'))) return paymentMethodAction(args, viewer.id, form);
  const submission = parseForm(form, CancellationSchema);
  if (submission.status !== 'success') return formError(submission);
  const cancel = submission.value.intent === 'cancel';
  const outcome = await setCancellation(createServiceSupabase(args.context.get(connectionContext)), paymentProvider(), {
    userId: viewer.id,
    cancel,
  });
  if (!outcome.ok) return formError(submission, PLAN_REFUSALS[outcome.refusal]);
  const end = formatDate(outcome.subscription.periodEnd, timeZoneFromCookieHeader(args.request.headers.get('cookie')));
  const plan = tierById(outcome.subscription.tier).name;
  return done(
    args,
    cancel
      ? `Subscription cancelled. You keep ${plan} until ${end}.`
      : `Your ${plan} subscription continues. Next billing date: ${end}.`,
  );
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Billing', 'Your AgentMarket subscription, payment methods and billing history.');

export default function BillingPage({ loaderData, actionData }: Route.ComponentProps) {
  // Which panel's form the action answered.
  const forMethods = isPaymentMethodIntent(fieldValue(actionData as FormResult | undefined, 'intent'));
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Billing</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">Manage your subscription and payment methods.</p>
      </header>
      <SubscriptionPanel subscription={loaderData.subscription} result={forMethods ? null : actionData} />
      <PaymentMethods methods={loaderData.paymentMethods} result={forMethods ? actionData : null} />
      <BillingHistory history={loaderData.history} timeZone={loaderData.timeZone} />
      <SecurityNote />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

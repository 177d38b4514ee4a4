/**
 * /dashboard/membership/confirm?tier=premium|enterprise: the confirmation step of every plan
 * change (ADR 018). The loader states the price, what changes and, for a change of plan, the
 * proration, from the same quote the action acts on (`quotePlan`); confirming posts here and
 * the server subscribes or changes the plan through the payment provider, then goes back to
 * Membership with the outcome. A plan that cannot be chosen now is a message (409), never a 500.
 */
import { FlaskConical } from 'lucide-react';
import { data, Form, Link, useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { FormMessage } from '~/components/ui/field';
import { buttonClass } from '~/components/ui/button';
import { connectionContext, supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatDate, formatMoney } from '~/lib/dashboard-format';
import { formNotice } from '~/lib/form-result';
import { tierById } from '~/lib/membership';
import { fromCents } from '~/lib/money';
import { shownPriceValue } from '~/lib/shown-price';
import { errorMeta, pageMeta } from '~/lib/meta';
import { addMonth, isPaidTier, PLAN_REFUSALS, quotePlan, type PlanQuote } from '~/lib/subscriptions';
import { PlanConfirmSchema } from '~/schemas/subscription';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection } from '~/server/guards.server';
import { requireAcceptedPolicies } from '~/server/policies.server';
import { BEFORE_PURCHASE } from '~/lib/policies';
import { notFound } from '~/server/http-errors.server';
import { paymentProvider } from '~/server/payments/index.server';
import { confirmPlan, liveSubscription } from '~/server/subscriptions.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/membership-confirm';

const MEMBERSHIP_PATH = '/dashboard/membership';

/** What the page says about a quote: title, the facts, the button. Dates in the viewer's zone. */
function describeQuote(quote: Exclude<PlanQuote, { kind: 'refused' }>, now: Date, timeZone: string) {
  const plan = tierById(quote.tier);
  const price = `${formatMoney(plan.monthlyPrice)} per month`;
  const date = (iso: string) => formatDate(iso, timeZone);
  const charge = formatMoney(fromCents(quote.chargeCents));
  switch (quote.kind) {
    case 'subscribe':
      return {
        title: `Subscribe to ${plan.name}`,
        facts: [
          ['Plan', plan.name],
          ['Price', price],
          ['Charged today', charge],
          ['Next billing date', date(addMonth(now).toISOString())],
        ],
        changes: [
          `Your discount on every purchase becomes ${plan.discountPercent}%, starting now.`,
          `You pay ${charge} today and ${formatMoney(plan.monthlyPrice)} every month after, until you cancel.`,
          'Cancel any time on the Billing page: you keep the plan until the end of the month you paid for.',
        ],
        button: `Confirm and pay ${charge}`,
      };
    case 'upgrade': {
      const from = tierById(quote.from);
      return {
        title: `Change to ${plan.name}`,
        facts: [
          ['Plan', `${from.name} → ${plan.name}`],
          ['New price', price],
          ['Charged today', charge],
          ['Next billing date', date(quote.periodEnd)],
        ],
        changes: [
          `Your discount on every purchase goes from ${from.discountPercent}% to ${plan.discountPercent}%, starting now.`,
          `Proration: ${charge} is the difference between ${plan.name} (${formatMoney(plan.monthlyPrice)}) and ${from.name} (${formatMoney(from.monthlyPrice)}) for the ${quote.daysLeft} of ${quote.periodDays} days left in your billing period.`,
          `From ${date(quote.periodEnd)} you pay ${price}.`,
        ],
        button: `Confirm and pay ${charge}`,
      };
    }
    case 'downgrade': {
      const from = tierById(quote.from);
      return {
        title: `Switch to ${plan.name}`,
        facts: [
          ['Plan', `${from.name} → ${plan.name}`],
          ['New price', price],
          ['Charged today', charge],
          ['Changes on', date(quote.periodEnd)],
        ],
        changes: [
          `Proration: none. You keep ${from.name} and its ${from.discountPercent}% discount until ${date(quote.periodEnd)}, the end of the period you paid for; no part of it is refunded.`,
          `From ${date(quote.periodEnd)} you are on ${plan.name} (${plan.discountPercent}% discount) at ${price}.`,
        ],
        button: `Switch to ${plan.name} on ${date(quote.periodEnd)}`,
      };
    }
    case 'keep': {
      const dropped = tierById(quote.dropped);
      return {
        title: `Stay on ${plan.name}`,
        facts: [
          ['Plan', plan.name],
          ['Price', price],
          ['Charged today', charge],
          ['Next billing date', date(quote.periodEnd)],
        ],
        changes: [`Your change to ${dropped.name} on ${date(quote.periodEnd)} is withdrawn.`],
        button: `Stay on ${plan.name}`,
      };
    }
  }
}

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  // A plan is a purchase: a newer Terms or Privacy Policy is accepted first (ADR 069).
  await requireAcceptedPolicies(args.context, BEFORE_PURCHASE, `${args.url.pathname}${args.url.search}`);
  const tier = args.url.searchParams.get('tier');
  if (!isPaidTier(tier)) {
    notFound({ title: 'Plan not found', message: 'Choose Premium or Enterprise on the Membership page.' });
  }
  const now = new Date();
  const quote = quotePlan(await liveSubscription(args.context.get(supabaseContext), viewer.id, now), tier, now);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const body = {
    tier,
    tierName: tierById(tier).name,
    refusal: quote.kind === 'refused' ? PLAN_REFUSALS[quote.refusal].message : null,
    offer: quote.kind === 'refused' ? null : describeQuote(quote, now, timeZone),
    // The amount charged today as shown: the form carries it, and no other is charged.
    charge: quote.kind === 'refused' ? null : shownPriceValue(quote.chargeCents),
    // A new key per page view: the same confirmation submitted twice is one charge.
    idempotencyKey: crypto.randomUUID(),
    testMode: paymentProvider().testMode,
  };
  return data(body, { status: quote.kind === 'refused' ? 409 : 200 });
}

export async function action(args: Route.ActionArgs) {
  const { viewer } = requireSection(args);
  await requireAcceptedPolicies(args.context, BEFORE_PURCHASE, `${args.url.pathname}${args.url.search}`);
  const submission = parseForm(await args.request.formData(), PlanConfirmSchema);
  if (submission.status !== 'success') return formError(submission);
  const outcome = await confirmPlan(createServiceSupabase(args.context.get(connectionContext)), paymentProvider(), {
    userId: viewer.id,
    tier: submission.value.tier,
    idempotencyKey: submission.value.idempotencyKey,
    shownChargeCents: submission.value.price,
  });
  if (!outcome.ok) {
    return formError(submission, PLAN_REFUSALS[outcome.refusal]);
  }
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const { quote, subscription } = outcome;
  const end = formatDate(subscription.periodEnd, timeZone);
  const name = tierById(quote.tier).name;
  const message =
    quote.kind === 'downgrade'
      ? `Your plan changes to ${name} on ${end}.`
      : quote.kind === 'keep'
        ? `You stay on ${name}. Next billing date: ${end}.`
        : `You are now on ${name}. Next billing date: ${end}.`;
  return redirectWithFlash(args.request, MEMBERSHIP_PATH, { kind: 'success', message });
}

/**
 * A refused confirmation (409: the amount changed, another change came first) reloads the quote,
 * so the page states what confirming would do now, with JavaScript as without.
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  errorMeta(error) ??
  pageMeta(
    loaderData?.offer?.title ?? 'Confirm your plan',
    'Confirm a change of your AgentMarket membership plan: price, what changes and what is charged today.',
  );

export default function MembershipConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  const { offer, refusal, tier, idempotencyKey, charge, testMode } = loaderData;
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'confirm';
  const notice = formNotice(actionData);
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">{offer?.title ?? `Choose ${loaderData.tierName}`}</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">Check the details, then confirm.</p>
      </header>
      {refusal ? <FormMessage kind="error" message={refusal} /> : null}
      {offer ? (
        <section
          aria-labelledby="plan-summary"
          className="flex flex-col gap-4 rounded-xl border border-slate-200 p-5 dark:border-slate-800"
        >
          <h2 id="plan-summary" className="text-lg font-semibold">
            Summary
          </h2>
          <dl className="grid gap-4 sm:grid-cols-2">
            {offer.facts.map(([label, value]) => (
              <div key={label}>
                <dt className="text-sm text-slate-700 dark:text-slate-300">{label}</dt>
                <dd className="font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
          <h3 className="font-semibold">What changes</h3>
          <ul className="list-disc pl-5 text-sm text-slate-800 dark:text-slate-200">
            {offer.changes.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {testMode ? (
            <p className="flex items-center gap-2 text-xs text-slate-700 dark:text-slate-300">
              <FlaskConical aria-hidden="true" className="size-4 shrink-0" /> Test mode: no real payment is taken.
            </p>
          ) : null}
          {notice ? <FormMessage {...notice} /> : null}
          <Form method="post" className="flex flex-wrap gap-3">
            <input type="hidden" name="tier" value={tier} />
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <input type="hidden" name="price" value={charge ?? ''} />
            <button type="submit" name="intent" value="confirm" disabled={pending} className={buttonClass('primary')}>
              {pending ? 'Please wait…' : offer.button}
            </button>
            <Link to={MEMBERSHIP_PATH} className={buttonClass('secondary')}>
              Back to Membership
            </Link>
          </Form>
        </section>
      ) : (
        <Link to={MEMBERSHIP_PATH} className={`${buttonClass('secondary')} self-start`}>
          Back to Membership
        </Link>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

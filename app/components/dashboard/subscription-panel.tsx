/** Billing's plan panel: the member's subscription and what they can do with it. */
import { Form, Link, useNavigation } from 'react-router';
import { ChoosePlanButton } from '~/components/dashboard/membership-parts';
import { StatusBadge } from '~/components/dashboard/status-badge';
import { buttonClass } from '~/components/ui/button';
import { FormMessage } from '~/components/ui/field';
import { formatMoney } from '~/lib/dashboard-format';
import { formNotice, type FormResult } from '~/lib/form-result';
import { tierById, type TierId } from '~/lib/membership';
import { GRACE_DAYS } from '~/lib/subscriptions';

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

/** Billing's view of the member's plan: their live subscription, or null on the free Basic plan. */
export interface SubscriptionSummary {
  plan: string;
  /** The monthly price of the plan. */
  amount: number;
  status: 'active' | 'past_due';
  /** The end of the current period, formatted: the next billing date, or the day the plan ends. */
  periodEnd: string;
  cancelAtPeriodEnd: boolean;
  /** The plan it changes to at the end of the period (a downgrade), if any. */
  scheduledPlan: string | null;
  /** The tier 'Change Plan' opens the confirmation page of. */
  changeTo: TierId;
  /** Past due: the last day of the grace period (formatted), after which the plan ends. */
  graceEnds: string | null;
}

export function SubscriptionPanel({
  subscription,
  result,
}: {
  subscription: SubscriptionSummary | null;
  result?: FormResult | null;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.has('intent');
  const notice = formNotice(result);
  const facts: [string, string][] = subscription
    ? [
        ['Plan', subscription.plan],
        ['Amount', `${formatMoney(subscription.amount)} / month`],
        [
          subscription.cancelAtPeriodEnd
            ? 'Ends on'
            : subscription.graceEnds
              ? 'Payment due since'
              : 'Next billing date',
          subscription.periodEnd,
        ],
      ]
    : [
        ['Plan', tierById('basic').name],
        ['Amount', `${formatMoney(0)} / month`],
      ];
  return (
    <section aria-labelledby="current-subscription" className={PANEL}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="current-subscription" className="text-lg font-semibold">
          Current Subscription
        </h2>
        {subscription ? <StatusBadge status={subscription.status} /> : null}
      </div>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt className={SECONDARY}>{label}</dt>
            <dd className="font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      {subscription ? (
        <SubscriptionActions subscription={subscription} pending={!!pending} />
      ) : (
        <>
          <p className={`mt-4 ${SECONDARY}`}>
            You are on the free plan. A paid plan adds a discount on every purchase.
          </p>
          <Link to="/dashboard/membership" className={`${buttonClass('primary')} mt-5`}>
            See plans
          </Link>
        </>
      )}
      {notice ? (
        <div className="mt-4">
          <FormMessage {...notice} />
        </div>
      ) : null}
    </section>
  );
}

/** What a subscriber can do: Change Plan, Cancel Subscription, or its undo, Keep Subscription. */
function SubscriptionActions({ subscription, pending }: { subscription: SubscriptionSummary; pending: boolean }) {
  return (
    <>
      {subscription.graceEnds ? (
        <p className="mt-4 text-sm font-medium text-red-800 dark:text-red-300">
          Your last payment did not go through. We will try again every day; you keep {subscription.plan} for a grace
          period of {GRACE_DAYS} days. If no payment succeeds by {subscription.graceEnds}, your plan ends and you move
          to Basic.
        </p>
      ) : null}
      {subscription.cancelAtPeriodEnd ? (
        <p className="mt-4 text-sm font-medium text-red-800 dark:text-red-300">
          Cancelled: your {subscription.plan} plan ends on {subscription.periodEnd}. Nothing more will be charged.
          Changed your mind? Keep your subscription until then.
        </p>
      ) : subscription.scheduledPlan ? (
        <p className={`mt-4 ${SECONDARY}`}>
          Changes to {subscription.scheduledPlan} on {subscription.periodEnd}.
        </p>
      ) : null}
      <div className="mt-5 flex flex-wrap gap-3">
        {subscription.cancelAtPeriodEnd ? null : (
          <ChoosePlanButton tier={subscription.changeTo} primary>
            Change Plan
          </ChoosePlanButton>
        )}
        <Form method="post">
          {subscription.cancelAtPeriodEnd ? (
            <button type="submit" name="intent" value="resume" disabled={pending} className={buttonClass('primary')}>
              Keep Subscription
            </button>
          ) : (
            <button type="submit" name="intent" value="cancel" disabled={pending} className={buttonClass('secondary')}>
              Cancel Subscription
            </button>
          )}
        </Form>
      </div>
    </>
  );
}

import { Gift, Headphones, Percent, Rocket, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { Badge } from '~/components/dashboard/status-badge';
import { TierFeatures } from '~/components/tier-features';
import { buttonClass } from '~/components/ui/button';
import { formatMoney } from '~/lib/dashboard-format';
import { TIERS, type TierId } from '~/lib/membership';
import { pluralize } from '~/lib/plural';

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

/**
 * Spending toward the next reward, at the next 1,000-point milestone (ADR 018): 'Spend $X more',
 * X = (100 − progress) × 10. The page's one target: Loyalty Rewards counts down to the same one.
 */
export function TierProgress({
  milestonePoints,
  progressPercent,
  spendMore,
}: {
  milestonePoints: number;
  progressPercent: number;
  spendMore: number;
}) {
  return (
    <section aria-labelledby="tier-progress" className={PANEL}>
      <div className="flex items-baseline justify-between gap-4">
        <h2 id="tier-progress" className="text-lg font-semibold">
          Progress to your next reward
        </h2>
        <span className="font-semibold">{progressPercent}%</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="tier-progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progressPercent}
        className="mt-3 h-3 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div className="h-full rounded-full bg-brand-600" style={{ width: `${progressPercent}%` }} />
      </div>
      <p className={`mt-2 ${SECONDARY}`}>
        Spend {formatMoney(spendMore)} more to reach {milestonePoints.toLocaleString('en-US')} loyalty points and your
        next reward.
      </p>
    </section>
  );
}

/** The confirmation page of a plan (GET: choosing a plan changes nothing until it is confirmed). */
export const PLAN_CONFIRM_PATH = '/dashboard/membership/confirm';

/** A button that opens the confirmation page of `tier`: a GET form, so it works without JavaScript. */
export function ChoosePlanButton({
  tier,
  children,
  primary = false,
}: {
  tier: TierId;
  children: ReactNode;
  primary?: boolean;
}) {
  return (
    <Form method="get" action={PLAN_CONFIRM_PATH} className="contents">
      <input type="hidden" name="tier" value={tier} />
      <button type="submit" className={buttonClass(primary ? 'primary' : 'secondary')}>
        {children}
      </button>
    </Form>
  );
}

export function TierComparison({ currentTier }: { currentTier: TierId }) {
  const currentPrice = TIERS.find((tier) => tier.id === currentTier)?.monthlyPrice ?? 0;
  return (
    <section aria-labelledby="tier-comparison">
      <h2 id="tier-comparison" className="text-xl font-semibold">
        Membership Tiers
      </h2>
      <ul className="mt-4 grid gap-4 lg:grid-cols-3">
        {TIERS.map((tier) => {
          const isCurrent = tier.id === currentTier;
          return (
            <li
              key={tier.id}
              className={`flex flex-col rounded-xl border p-5 ${
                tier.isPopular ? 'border-brand-600 shadow-md' : 'border-slate-200 dark:border-slate-800'
              }`}
            >
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="text-lg font-semibold">{tier.name}</h3>
                {tier.isPopular ? <Badge>Most Popular</Badge> : null}
                {isCurrent ? <Badge tone="slate">Current</Badge> : null}
              </div>
              <p className="mt-3">
                <span className="text-3xl font-bold">${tier.monthlyPrice}</span>
                <span className={SECONDARY}> per month</span>
              </p>
              <p className={SECONDARY}>
                {tier.discountPercent > 0 ? `${tier.discountPercent}% discount on purchases` : 'No purchase discount'}
              </p>
              <TierFeatures tier={tier} className="mt-4" />
              <div className="mt-5 flex flex-col">
                {isCurrent ? (
                  <button type="button" disabled className={buttonClass('secondary')}>
                    Current Plan
                  </button>
                ) : tier.id === 'basic' ? (
                  <Link to="/dashboard/billing" className={buttonClass('secondary')}>
                    Cancel on Billing
                  </Link>
                ) : (
                  <ChoosePlanButton tier={tier.id} primary={tier.isPopular}>
                    {tier.monthlyPrice > currentPrice ? 'Upgrade Now' : `Switch to ${tier.name}`}
                  </ChoosePlanButton>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const BENEFITS = [
  { icon: Percent, title: 'Member Discounts', text: 'Save up to 20% on every AI agent you buy.' },
  { icon: Headphones, title: 'Priority Support', text: 'Jump the queue when you need help with an agent.' },
  { icon: Rocket, title: 'Early Access', text: 'Try new agents before everyone else.' },
  { icon: Sparkles, title: 'Exclusive Deals', text: 'Member-only offers from top sellers.' },
];

export function BenefitTiles() {
  return (
    <section aria-labelledby="member-benefits">
      <h2 id="member-benefits" className="text-xl font-semibold">
        Member Benefits
      </h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {BENEFITS.map(({ icon: Icon, title, text }) => (
          <li key={title} className={PANEL}>
            <Icon aria-hidden="true" className="size-6 text-brand-700 dark:text-brand-300" />
            <h3 className="mt-3 font-semibold">{title}</h3>
            <p className={`mt-1 ${SECONDARY}`}>{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function LoyaltyRewards({
  points,
  pointsAway,
  milestonePoints,
  noteId,
}: {
  points: number;
  pointsAway: number;
  milestonePoints: number;
  noteId: string;
}) {
  return (
    <section aria-labelledby="loyalty-rewards" className={`${PANEL} flex flex-col gap-4 sm:flex-row sm:items-center`}>
      <Gift aria-hidden="true" className="size-10 shrink-0 text-brand-700 dark:text-brand-300" />
      <div className="flex-1">
        <h2 id="loyalty-rewards" className="text-lg font-semibold">
          Loyalty Rewards
        </h2>
        <p className={SECONDARY}>
          You have {pluralize(points, 'point')}. You&apos;re {pluralize(pointsAway, 'point')} away from your next
          reward, at {milestonePoints.toLocaleString('en-US')} points.
        </p>
      </div>
      <button type="button" disabled aria-describedby={noteId} className={buttonClass('secondary')}>
        View Rewards Catalog
      </button>
    </section>
  );
}

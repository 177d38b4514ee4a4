import { GeneralErrorBoundary } from '~/components/error-boundary';
import { supabaseContext } from '~/context';
import { BenefitTiles, LoyaltyRewards, TierComparison, TierProgress } from '~/components/dashboard/membership-parts';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatDate, formatMoney } from '~/lib/dashboard-format';
import { summarizeMembership, tierById } from '~/lib/membership';
import { tierOfSubscription } from '~/lib/subscriptions';
import { errorMeta, pageMeta } from '~/lib/meta';
import { getBuyerFigures } from '~/server/dashboard.server';
import { requireSection } from '~/server/guards.server';
import { liveSubscription } from '~/server/subscriptions.server';
import type { Route } from './+types/membership';

const NOTE_ID = 'membership-note';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const client = args.context.get(supabaseContext);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const [figures, subscription] = await Promise.all([
    getBuyerFigures(client, new Date(), timeZone),
    liveSubscription(client, viewer.id),
  ]);
  const summary = summarizeMembership(figures, tierOfSubscription(subscription));
  return {
    tierId: summary.tier.id,
    tierName: summary.tier.name,
    // The plan's date: when it is next billed, or when it ends after a cancellation.
    billing: subscription
      ? {
          label: subscription.cancelAtPeriodEnd ? 'Plan Ends' : 'Next Billing Date',
          date: formatDate(subscription.periodEnd, timeZone),
          scheduled: subscription.scheduledTier ? tierById(subscription.scheduledTier).name : null,
        }
      : null,
    memberSince: formatDate(viewer.createdAt, timeZone),
    totalSpent: summary.totalSpent,
    purchaseCount: summary.purchaseCount,
    loyaltyPoints: summary.loyaltyPoints,
    savingsEarned: summary.savingsEarned,
    progressPercent: summary.progressPercent,
    spendMore: summary.spendMore,
    milestonePoints: summary.milestonePoints,
    pointsAway: summary.pointsAway,
  };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Membership', 'Your AgentMarket membership plan, spending, loyalty points and the benefits of each tier.');

export default function MembershipPage({ loaderData }: Route.ComponentProps) {
  const { billing } = loaderData;
  const figures = [
    ['Current Tier', loaderData.tierName],
    ...(billing ? [[billing.label, billing.date] as const] : []),
    ['Member Since', loaderData.memberSince],
    ['Total Spent', formatMoney(loaderData.totalSpent)],
    ['Purchases', loaderData.purchaseCount.toLocaleString('en-US')],
    ['Loyalty Points', loaderData.loyaltyPoints.toLocaleString('en-US')],
    ['Savings Earned', formatMoney(loaderData.savingsEarned)],
  ] as const;
  return (
    <div className="flex flex-col gap-8">
      <header>
        <h1 className="text-3xl font-bold">Membership</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          Your plan sets your discount on every purchase. What you spend on completed purchases earns loyalty points:
          one per whole dollar.
        </p>
      </header>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
            <dt className="text-sm text-slate-700 dark:text-slate-300">{label}</dt>
            <dd className="mt-1 text-2xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>
      {billing?.scheduled ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Your plan changes to {billing.scheduled} on {billing.date}.
        </p>
      ) : null}
      <TierProgress
        milestonePoints={loaderData.milestonePoints}
        progressPercent={loaderData.progressPercent}
        spendMore={loaderData.spendMore}
      />
      <TierComparison currentTier={loaderData.tierId} />
      <BenefitTiles />
      <p id={NOTE_ID} className="text-sm text-slate-700 dark:text-slate-300">
        The rewards catalog opens in a later release; your points are kept.
      </p>
      <LoyaltyRewards
        points={loaderData.loyaltyPoints}
        pointsAway={loaderData.pointsAway}
        milestonePoints={loaderData.milestonePoints}
        noteId={NOTE_ID}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

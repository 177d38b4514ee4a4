import { GeneralErrorBoundary } from '~/components/error-boundary';
import { supabaseContext } from '~/context';
import { BenefitTiles, LoyaltyRewards, TierComparison, TierProgress } from '~/components/dashboard/membership-parts';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatDate, formatMoney } from '~/lib/dashboard-format';
import { pointsToNextReward, summarizeMembership } from '~/lib/membership';
import { errorMeta, pageMeta } from '~/lib/meta';
import { getCompletedPurchases } from '~/server/dashboard.server';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/membership';

const NOTE_ID = 'membership-note';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const summary = summarizeMembership(await getCompletedPurchases(args.context.get(supabaseContext), viewer.id));
  return {
    tierId: summary.tier.id,
    tierName: summary.tier.name,
    nextName: summary.next?.name ?? null,
    memberSince: formatDate(viewer.createdAt, timeZoneFromCookieHeader(args.request.headers.get('cookie'))),
    totalSpent: summary.totalSpent,
    purchaseCount: summary.purchaseCount,
    loyaltyPoints: summary.loyaltyPoints,
    savingsEarned: summary.savingsEarned,
    progressPercent: summary.progressPercent,
    spendMore: summary.spendMore,
  };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Membership', 'Your AgentMarket membership tier, spending, loyalty points and the benefits of each tier.');

export default function MembershipPage({ loaderData }: Route.ComponentProps) {
  const figures = [
    ['Current Tier', loaderData.tierName],
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
          Your tier grows with what you spend on completed purchases: one loyalty point per whole dollar.
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
      <TierProgress
        nextName={loaderData.nextName}
        progressPercent={loaderData.progressPercent}
        spendMore={loaderData.spendMore}
      />
      <p id={NOTE_ID} className="text-sm text-slate-700 dark:text-slate-300">
        Paid plans and the rewards catalog open once payments are available; nothing is charged today.
      </p>
      <TierComparison currentTier={loaderData.tierId} noteId={NOTE_ID} />
      <BenefitTiles />
      <LoyaltyRewards
        points={loaderData.loyaltyPoints}
        pointsAway={pointsToNextReward(loaderData.loyaltyPoints)}
        noteId={NOTE_ID}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

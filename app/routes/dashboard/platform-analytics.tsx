/**
 * /dashboard/platform-analytics (`view_admin_analytics`): new users, sellers and agents,
 * purchases, revenue and active users per UTC day over the last 30 days, with totals. One
 * database function (`platform_daily_figures`, administrators only) feeds this page and the
 * overview's Platform Insights, so the two never disagree.
 */
import { DailyChart } from '~/components/daily-chart';
import { StatCards } from '~/components/dashboard/overview-parts';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { supabaseContext } from '~/context';
import { ANALYTICS_DAYS, sumOf } from '~/lib/analytics';
import { errorMeta, pageMeta } from '~/lib/meta';
import { getPlatformDays } from '~/server/analytics.server';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/platform-analytics';

export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  return { days: await getPlatformDays(args.context.get(supabaseContext)) };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Platform Analytics', 'Users, sellers, agents, purchases and revenue of the marketplace per day.');

export default function PlatformAnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { days } = loaderData;
  const total = (figure: (day: (typeof days)[number]) => number, money = false) => sumOf(days, figure, money);
  return (
    <div className="flex flex-col gap-8">
      <header>
        <h1 className="text-3xl font-bold">Platform Analytics</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          The whole marketplace over the last {ANALYTICS_DAYS} days (UTC). Purchases and revenue count completed
          purchases; new agents are published agents by the day they were created; active users bought, reviewed,
          downloaded or viewed an agent page that day.
        </p>
      </header>
      <section aria-label="Totals">
        <StatCards
          cards={[
            { label: 'New users', value: total((day) => day.newUsers), format: 'count' },
            { label: 'New sellers', value: total((day) => day.newSellers), format: 'count' },
            { label: 'New agents', value: total((day) => day.newAgents), format: 'count' },
            { label: 'Purchases', value: total((day) => day.purchases), format: 'count' },
            { label: 'Revenue', value: total((day) => day.revenue, true), format: 'money' },
            { label: 'Active users today', value: days.at(-1)?.activeUsers ?? 0, format: 'count' },
          ]}
        />
      </section>
      <DailyChart
        title="The marketplace per day"
        description="New accounts and listings, completed purchases, revenue and active users, per UTC day."
        days={days.map((day) => day.day)}
        series={[
          { label: 'New users', format: 'count', values: days.map((day) => day.newUsers) },
          { label: 'New sellers', format: 'count', values: days.map((day) => day.newSellers) },
          { label: 'New agents', format: 'count', values: days.map((day) => day.newAgents) },
          { label: 'Purchases', format: 'count', values: days.map((day) => day.purchases) },
          { label: 'Revenue', format: 'money', values: days.map((day) => day.revenue) },
          { label: 'Active users', format: 'count', values: days.map((day) => day.activeUsers) },
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

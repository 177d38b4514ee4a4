/**
 * /dashboard/platform-analytics (`view_admin_analytics`): new users, sellers and agents,
 * purchases, revenue and active users per UTC day over the last 30 days, with totals. One
 * database function (`platform_daily_figures`, administrators only) feeds this page and the
 * overview's Platform Insights, so the two never disagree. Active users do not add up over days
 * (one person on ten days is one user): the period's figure is the database's count of distinct
 * users (`platform_active_users`), the days' figure is shown as a daily average.
 */
import { DailyChart } from '~/components/daily-chart';
import { StatCards } from '~/components/dashboard/overview-parts';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { supabaseContext } from '~/context';
import { ANALYTICS_DAYS, averageOf, sumOf } from '~/lib/analytics';
import { errorMeta, pageMeta } from '~/lib/meta';
import { getPlatformActiveUsers, getPlatformDays } from '~/server/analytics.server';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/platform-analytics';

export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  const client = args.context.get(supabaseContext);
  const [days, activeUsers] = await Promise.all([getPlatformDays(client), getPlatformActiveUsers(client)]);
  return { days, activeUsers };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Platform Analytics', 'Users, sellers, agents, purchases and revenue of the marketplace per day.');

export default function PlatformAnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { days, activeUsers } = loaderData;
  const total = (figure: (day: (typeof days)[number]) => number, money = false) => sumOf(days, figure, money);
  const period = `(${ANALYTICS_DAYS} days)`;
  return (
    <div className="flex flex-col gap-8">
      <header>
        <h1 className="text-3xl font-bold">Platform Analytics</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          The whole marketplace over the last {ANALYTICS_DAYS} days (UTC). Purchases and revenue count completed
          purchases; new agents are published agents by the day they were created. An active user bought, reviewed,
          downloaded or viewed an agent page: each counts once over the {ANALYTICS_DAYS} days, and once a day in the
          daily figures.
        </p>
      </header>
      <section aria-label="Totals">
        <StatCards
          cards={[
            { label: `New users ${period}`, value: total((day) => day.newUsers), format: 'count' },
            { label: `New sellers ${period}`, value: total((day) => day.newSellers), format: 'count' },
            { label: `New agents ${period}`, value: total((day) => day.newAgents), format: 'count' },
            { label: `Purchases ${period}`, value: total((day) => day.purchases), format: 'count' },
            { label: `Revenue ${period}`, value: total((day) => day.revenue, true), format: 'money' },
            { label: `Active users ${period}`, value: activeUsers, format: 'count' },
            {
              label: 'Daily active users (average)',
              value: averageOf(days, (day) => day.activeUsers),
              format: 'average',
            },
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
          { label: 'Active users', format: 'count', values: days.map((day) => day.activeUsers), summary: 'average' },
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

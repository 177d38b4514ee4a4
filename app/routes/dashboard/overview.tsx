import { GeneralErrorBoundary } from '~/components/error-boundary';
import { supabaseContext } from '~/context';
import { Badge } from '~/components/dashboard/status-badge';
import { PlatformInsightsPanel, QuickActions, RecentActivity, StatCards } from '~/components/dashboard/overview-parts';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { GREETING_SUBTITLE, greetingAt } from '~/lib/greeting';
import { errorMeta, pageMeta } from '~/lib/meta';
import { hasPermission, ROLE_LABEL } from '~/lib/permissions';
import { getRecentActivity } from '~/server/dashboard-activity.server';
import { getPlatformInsights } from '~/server/analytics.server';
import { getAdminStats, getBuyerStats, getSellerStats } from '~/server/dashboard.server';
import { failIfInjected } from '~/server/faults.server';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/overview';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  failIfInjected(args.request, 'dashboard');
  const client = args.context.get(supabaseContext);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const now = new Date();
  const stats = hasPermission(viewer.role, 'view_admin_analytics')
    ? getAdminStats(client, now)
    : hasPermission(viewer.role, 'view_seller_dashboard')
      ? getSellerStats(client)
      : getBuyerStats(client, viewer.id, now, timeZone);
  const [cards, activity, insights] = await Promise.all([
    stats,
    getRecentActivity(client, viewer),
    hasPermission(viewer.role, 'view_admin_analytics') ? getPlatformInsights(client) : null,
  ]);
  return {
    greeting: greetingAt(now, timeZone),
    timeZone,
    username: viewer.username,
    role: viewer.role,
    cards,
    activity,
    insights,
  };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Dashboard', 'Your AgentMarket dashboard: figures, quick actions and recent activity for your account.');

export default function DashboardOverview({ loaderData }: Route.ComponentProps) {
  const { greeting, timeZone, username, role, cards, activity, insights } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold">
            {greeting}, {username}!
          </h1>
          <p className="mt-1 text-slate-700 dark:text-slate-300">{GREETING_SUBTITLE[role]}</p>
        </div>
        <Badge>{ROLE_LABEL[role]} Account</Badge>
      </header>
      <section aria-label="Your figures">
        <StatCards cards={cards} />
      </section>
      <div className="grid gap-6 lg:grid-cols-2">
        <QuickActions role={role} />
        <RecentActivity events={activity} timeZone={timeZone} />
      </div>
      {insights ? <PlatformInsightsPanel insights={insights} /> : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

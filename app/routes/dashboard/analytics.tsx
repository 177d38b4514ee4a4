/**
 * /dashboard/analytics (`view_sales_analytics`): the signed-in seller's sales, revenue and
 * agent-page views per UTC day over the last 30 days, totals with the conversion (sales per
 * view), and their agents ranked by revenue. From the database (`seller_daily_figures`,
 * `seller_agent_figures`) through the seller's own client: row-level security applies.
 */
import { BarChart3 } from 'lucide-react';
import { Link } from 'react-router';
import { DailyChart } from '~/components/daily-chart';
import { StatCards } from '~/components/dashboard/overview-parts';
import { AgentNameLink } from '~/components/dashboard/agent-row-header';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { EmptyState } from '~/components/page-states';
import { buttonClass } from '~/components/ui/button';
import { DataTable, type DataColumn } from '~/components/ui/data-table';
import { supabaseContext } from '~/context';
import { ANALYTICS_DAYS, formatConversion } from '~/lib/analytics';
import { formatMoney } from '~/lib/dashboard-format';
import { AGENTS_PATH } from '~/lib/listing';
import { errorMeta, pageMeta } from '~/lib/meta';
import { getSellerAnalytics } from '~/server/analytics.server';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/analytics';

export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  return { analytics: await getSellerAnalytics(args.context.get(supabaseContext)) };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta(
    'Sales Analytics',
    'Sales, revenue, agent-page views and conversion of your AI agents over the last 30 days.',
  );

type AgentFigures = Awaited<ReturnType<typeof getSellerAnalytics>>['agents'][number];

const AGENT_COLUMNS: DataColumn<AgentFigures>[] = [
  { header: 'Agent', rowHeader: true, cell: (agent) => <AgentNameLink id={agent.id} name={agent.name} /> },
  { header: 'Sales', numeric: true, cell: (agent) => agent.sales.toLocaleString('en-US') },
  { header: 'Revenue', numeric: true, cell: (agent) => formatMoney(agent.revenue) },
  { header: 'Views', numeric: true, cell: (agent) => agent.views.toLocaleString('en-US') },
  { header: 'Conversion', numeric: true, cell: (agent) => formatConversion(agent.conversion) },
];

export default function AnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { days, totals, agents } = loaderData.analytics;
  return (
    <div className="flex flex-col gap-8">
      <header>
        <h1 className="text-3xl font-bold">Sales Analytics</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          The last {ANALYTICS_DAYS} days (UTC). Sales are completed purchases: refunded, pending and failed ones are
          left out. Conversion is sales per agent-page view (one view per visitor and day).
        </p>
      </header>
      <section aria-label="Totals">
        <StatCards
          cards={[
            { label: 'Sales', value: totals.sales, format: 'count' },
            { label: 'Revenue', value: totals.revenue, format: 'money' },
            { label: 'Agent-page views', value: totals.views, format: 'count' },
            { label: 'Conversion', value: totals.conversion, format: 'percent' },
          ]}
        />
      </section>
      {totals.sales === 0 ? (
        <EmptyState
          icon={<BarChart3 aria-hidden="true" className="size-10" />}
          title="No sales in the last 30 days"
          message="When buyers purchase your agents, your sales and revenue per day are charted here."
        >
          <Link to={AGENTS_PATH} className={`${buttonClass('primary')} mt-6`}>
            Go to My AI Agents
          </Link>
        </EmptyState>
      ) : (
        <DailyChart
          title="Sales and revenue per day"
          description="Completed sales and the revenue they brought, per UTC day."
          days={days.map((day) => day.day)}
          series={[
            { label: 'Sales', format: 'count', values: days.map((day) => day.sales) },
            { label: 'Revenue', format: 'money', values: days.map((day) => day.revenue) },
          ]}
        />
      )}
      {agents.length > 0 ? (
        <section aria-labelledby="top-agents" className="flex flex-col gap-3">
          <h2 id="top-agents" className="text-xl font-semibold">
            Top agents
          </h2>
          <DataTable
            caption={`Your agents over the last ${ANALYTICS_DAYS} days, by revenue`}
            columns={AGENT_COLUMNS}
            rows={agents}
            rowKey={(agent) => agent.id}
          />
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

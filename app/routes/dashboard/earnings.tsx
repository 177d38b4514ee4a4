/**
 * /dashboard/earnings: the seller's figures (gross sales, the platform fee at the one rate of
 * app/lib/fees.ts, refunds, net earnings: overall, per agent and per month, summed by the
 * database from their own purchases), a CSV export (/dashboard/earnings/export), and the sales
 * themselves (newest first, through their own client: row-level security gives only the sales of
 * their agents) with Refund on completed sales.
 */
import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import {
  EARNINGS_EXPORT_PATH,
  EarningsSummary,
  EarningsTable,
  formatMonth,
} from '~/components/dashboard/earnings-parts';
import { SalesSection } from '~/components/dashboard/sales-list';
import { buttonClass } from '~/components/ui/button';
import { supabaseContext } from '~/context';
import { pageParam } from '~/lib/pagination';
import { errorMeta, pageMeta } from '~/lib/meta';
import { loadEarnings } from '~/server/earnings.server';
import { requireSection } from '~/server/guards.server';
import { refundPageState, salesListAction } from '~/server/refunds.server';
import { listSales } from '~/server/sales.server';
import type { Route } from './+types/earnings';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const client = args.context.get(supabaseContext);
  const params = args.url.searchParams;
  const state = refundPageState(args);
  const [sales, earnings] = await Promise.all([
    listSales(client, { sellerId: viewer.id, page: pageParam(params.get('page')) }),
    loadEarnings(client, state.timeZone),
  ]);
  return { sales, earnings, ...state };
}

export const action = (args: Route.ActionArgs) => salesListAction(args);

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Earnings', 'Your sales, the platform fee, refunds and net earnings, with refunds.');

const EMPTY_CLASS = 'rounded-xl border border-slate-200 p-6 text-slate-700 dark:border-slate-700 dark:text-slate-300';

export default function EarningsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { sales, earnings, ...refundState } = loaderData;
  const none = earnings.total.salesCount === 0;
  return (
    <div className="flex flex-col gap-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Earnings</h1>
          <p className="mt-1 text-slate-700 dark:text-slate-300">
            What your agents brought in, and every purchase of them, newest first.
          </p>
        </div>
        <a href={EARNINGS_EXPORT_PATH} download className={buttonClass('secondary', 'sm')}>
          <Download aria-hidden="true" className="size-4" /> Download CSV
        </a>
      </header>
      <section aria-labelledby="earnings-overall" className="flex flex-col gap-3">
        <h2 id="earnings-overall" className="text-xl font-semibold">
          Overall
        </h2>
        <EarningsSummary figures={earnings.total} feePercent={earnings.feePercent} />
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Gross sales count completed and refunded purchases at the price paid. The platform keeps {earnings.feePercent}
          % of each sale that is not refunded (see{' '}
          <Link to="/pricing" className="underline">
            Pricing
          </Link>
          ); refunds go back to the buyer in full. Net earnings are gross sales less refunds and the fee. Pending and
          failed purchases bring in nothing.
        </p>
      </section>
      <FiguresSection id="earnings-agents" title="Per agent" empty={none}>
        <EarningsTable
          caption="Earnings per agent"
          firstColumn="Agent"
          rows={earnings.agents.map((agent) => ({
            key: agent.agentId,
            label: (
              <Link to={`/agent/${agent.agentId}`} className="hover:underline">
                {agent.agentName}
              </Link>
            ),
            figures: agent,
          }))}
        />
      </FiguresSection>
      <FiguresSection id="earnings-months" title="Per month" empty={none}>
        <EarningsTable
          caption="Earnings per month"
          firstColumn="Month"
          rows={earnings.months.map((month) => ({ key: month.month, label: formatMonth(month.month), figures: month }))}
        />
      </FiguresSection>
      <SalesSection
        id="sales-list"
        title={`Your sales (${sales.total})`}
        sales={sales}
        result={actionData}
        {...refundState}
        emptyMessage="No sales yet. When a buyer purchases one of your agents, it appears here."
      />
    </div>
  );
}

/** A titled table of figures, or 'No earnings yet.' before the first sale. */
function FiguresSection({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: string;
  empty: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {empty ? <p className={EMPTY_CLASS}>No earnings yet.</p> : children}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

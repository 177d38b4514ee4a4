/**
 * /dashboard/earnings: the seller's sales (newest first, through their own client: row-level
 * security gives only the sales of their agents), simple totals, and Refund on completed sales.
 * Fees, payouts and charts arrive with the sellers' figures later.
 */
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { SalesList, TestModeNote } from '~/components/dashboard/sales-list';
import { supabaseContext } from '~/context';
import { parseReviewsPage } from '~/lib/agent-detail';
import { formatMoney } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import { requireSection } from '~/server/guards.server';
import { refundAction, refundPageState } from '~/server/refunds.server';
import { listSales, salesTotals } from '~/server/sales.server';
import type { Route } from './+types/earnings';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const client = args.context.get(supabaseContext);
  const params = args.url.searchParams;
  const [sales, totals] = await Promise.all([
    listSales(client, { sellerId: viewer.id, page: parseReviewsPage(params.get('page')) }),
    salesTotals(client, viewer.id),
  ]);
  return {
    sales,
    totals,
    ...refundPageState(args),
  };
}

export const action = (args: Route.ActionArgs) => refundAction(args);

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Sales', 'The sales of your AI agents, with refunds.');

export default function EarningsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { sales, totals, openRefund, testMode, timeZone } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Sales</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">Every purchase of your agents, newest first.</p>
      </header>
      <section aria-labelledby="sales-totals">
        <h2 id="sales-totals" className="sr-only">
          Totals
        </h2>
        <dl className="grid gap-4 sm:grid-cols-3">
          <Figure label="Revenue" value={formatMoney(totals.revenue)} />
          <Figure label="Completed sales" value={String(totals.completedCount)} />
          <Figure label="Refunded" value={String(totals.refundedCount)} />
        </dl>
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          Revenue counts completed sales at the price paid; refunded, pending and failed purchases are left out.
          Platform fees and payouts are not shown yet.
        </p>
      </section>
      <section aria-labelledby="sales-list" className="flex flex-col gap-3">
        <h2 id="sales-list" className="text-xl font-semibold">
          Your sales ({sales.total})
        </h2>
        {testMode ? <TestModeNote /> : null}
        <SalesList
          sales={sales}
          openRefund={openRefund}
          testMode={testMode}
          result={actionData}
          timeZone={timeZone}
          emptyMessage="No sales yet. When a buyer purchases one of your agents, it appears here."
        />
      </section>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <dt className="text-sm text-slate-700 dark:text-slate-300">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/**
 * The seller's figures on /dashboard/earnings: the overall four (gross sales, platform fee,
 * refunds, net earnings) and the same columns per agent and per month as tables.
 */
import type { ReactNode } from 'react';
import { DataTable, type DataColumn } from '~/components/ui/data-table';
import { formatMoney } from '~/lib/dashboard-format';
import type { EarningsFigures } from '~/server/earnings.server';

/** The CSV export of the seller's sales (app/routes/dashboard/earnings-export.ts). */
export const EARNINGS_EXPORT_PATH = '/dashboard/earnings/export';

export function EarningsSummary({ figures, feePercent }: { figures: EarningsFigures; feePercent: number }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Figure label="Gross sales" value={formatMoney(figures.gross)} />
      <Figure label={`Platform fee (${feePercent}%)`} value={formatMoney(figures.fee)} />
      <Figure label="Refunds" value={formatMoney(figures.refunds)} />
      <Figure label="Net earnings" value={formatMoney(figures.net)} />
    </dl>
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

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `November 2026` for `2026-11`. */
export function formatMonth(month: string): string {
  return MONTH.format(new Date(`${month}-01T00:00:00Z`));
}

type EarningsRow = { key: string; label: ReactNode; figures: EarningsFigures };

/** The figures of a row of either table, after its label. */
const FIGURE_COLUMNS: DataColumn<EarningsRow>[] = [
  {
    header: 'Sales',
    numeric: true,
    cell: ({ figures }) => (
      <>
        {figures.salesCount}
        {figures.refundCount > 0 ? (
          <span className="text-slate-700 dark:text-slate-300"> ({figures.refundCount} refunded)</span>
        ) : null}
      </>
    ),
  },
  { header: 'Gross', numeric: true, cell: ({ figures }) => formatMoney(figures.gross) },
  { header: 'Refunds', numeric: true, cell: ({ figures }) => formatMoney(figures.refunds) },
  { header: 'Fee', numeric: true, cell: ({ figures }) => formatMoney(figures.fee) },
  { header: 'Net', numeric: true, cell: ({ figures }) => formatMoney(figures.net), className: 'font-semibold' },
];

/** One row per agent or month: its label (a row header) and its figures. */
export function EarningsTable({
  caption,
  firstColumn,
  rows,
}: {
  caption: string;
  firstColumn: string;
  rows: readonly EarningsRow[];
}) {
  return (
    <DataTable
      caption={caption}
      columns={[{ header: firstColumn, rowHeader: true, cell: (row) => row.label }, ...FIGURE_COLUMNS]}
      rows={rows}
      rowKey={(row) => row.key}
    />
  );
}

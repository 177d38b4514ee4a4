/**
 * The seller's figures on /dashboard/earnings: the overall four (gross sales, platform fee,
 * refunds, net earnings) and the same columns per agent and per month as tables.
 */
import type { ReactNode } from 'react';
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

const NUMBER_COLUMNS = ['Sales', 'Gross', 'Refunds', 'Fee', 'Net'] as const;

/** One row per agent or month: its label (a row header) and its figures. */
export function EarningsTable({
  caption,
  firstColumn,
  rows,
}: {
  caption: string;
  firstColumn: string;
  rows: readonly { key: string; label: ReactNode; figures: EarningsFigures }[];
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-700">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-slate-700 dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              {firstColumn}
            </th>
            {NUMBER_COLUMNS.map((name) => (
              <th key={name} scope="col" className="px-4 py-2 text-right font-medium">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {rows.map(({ key, label, figures }) => (
            <tr key={key}>
              <th scope="row" className="px-4 py-2 font-medium">
                {label}
              </th>
              <td className="px-4 py-2 text-right tabular-nums">
                {figures.salesCount}
                {figures.refundCount > 0 ? (
                  <span className="text-slate-700 dark:text-slate-300"> ({figures.refundCount} refunded)</span>
                ) : null}
              </td>
              <td className="px-4 py-2 text-right tabular-nums">{formatMoney(figures.gross)}</td>
              <td className="px-4 py-2 text-right tabular-nums">{formatMoney(figures.refunds)}</td>
              <td className="px-4 py-2 text-right tabular-nums">{formatMoney(figures.fee)}</td>
              <td className="px-4 py-2 text-right font-semibold tabular-nums">{formatMoney(figures.net)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Every data table of the dashboard, drawn one way: a table from Tailwind's `md` (48rem) up, and
 * below it a stack of rows, each a block of label and value pairs (the column's header beside each
 * value), so a phone never scrolls sideways or cuts a column off (docs/product.md, "Dashboard").
 * The headers stay in the table for screen readers (visually hidden when stacked), and so does
 * the table's structure.
 */
import type { ReactNode } from 'react';

export interface DataColumn<Row> {
  /** The column's header, and the label beside each of its values when the rows stack. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** Figures: right-aligned, in tabular digits. */
  numeric?: boolean;
  /** The row's name (`<th scope="row">`): the title of its block when the rows stack. */
  rowHeader?: boolean;
  /** More classes for the column's values (not their labels). */
  className?: string;
}

const CELL = 'md:table-cell md:px-4 md:py-3 md:align-middle';
/** What a cell holds, in one box (so a value of several parts stays together beside its label). */
const CONTENT = 'min-w-0 break-words';

/** Label and value side by side when stacked (the label from `data-label`), a plain cell from `md` up. */
const VALUE_CELL = `flex items-baseline justify-between gap-4 px-4 py-1 text-right before:shrink-0 before:text-left before:font-medium before:text-slate-700 before:content-[attr(data-label)] md:before:content-none dark:before:text-slate-300 ${CELL}`;

export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  framed = true,
}: {
  /** What the table holds, for screen readers. */
  caption: string;
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** With its own border (false: inside a panel that has one). */
  framed?: boolean;
}) {
  return (
    // From `md` up a table too wide for its column still scrolls inside its box, never the page.
    <div className={`md:overflow-x-auto ${framed ? 'rounded-xl border border-slate-200 dark:border-slate-700' : ''}`}>
      <table className="block w-full text-left text-sm md:table">
        <caption className="sr-only">{caption}</caption>
        <thead className="sr-only bg-slate-50 text-slate-700 md:not-sr-only md:table-header-group dark:bg-slate-900 dark:text-slate-300">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={`px-4 py-3 font-semibold ${column.numeric ? 'text-right' : ''}`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="block divide-y divide-slate-200 md:table-row-group dark:divide-slate-700">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="block py-2 md:table-row md:py-0">
              {columns.map((column) =>
                column.rowHeader ? (
                  <th
                    key={column.header}
                    scope="row"
                    className={`block px-4 py-1 font-medium ${CELL} ${column.className ?? ''}`}
                  >
                    {column.cell(row)}
                  </th>
                ) : (
                  <td
                    key={column.header}
                    data-label={column.header}
                    className={`${VALUE_CELL} ${column.numeric ? 'tabular-nums md:text-right' : 'md:text-left'}`}
                  >
                    <div className={`${CONTENT} ${column.className ?? ''}`}>{column.cell(row)}</div>
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

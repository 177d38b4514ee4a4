/**
 * `Prefer: count=…` for reads and RPC: `exact` counts every matching row in the same
 * statement; `planned` takes the planner's estimate of the rows under the statement's LIMIT;
 * `estimated` is exact up to MAX_ROWS rows and planned above, as PostgREST does with its
 * `db-max-rows` setting.
 */
import type { Transaction } from '../database';
import type { Preferences } from './prefer';
import { MAX_ROWS } from './respond';

interface PlanNode {
  'Node Type': string;
  'Plan Rows': number;
  Plans?: PlanNode[];
}

/** The estimated rows feeding the first LIMIT of `sql` (every read and RPC statement has one). */
async function plannedRows(tx: Transaction, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`explain (format json) ${sql}`, params);
  const pending: PlanNode[] = [rows[0]!['QUERY PLAN'][0]!.Plan];
  for (let node = pending.shift(); node; node = pending.shift()) {
    if (node['Node Type'] === 'Limit') return Math.round(node.Plans?.[0]?.['Plan Rows'] ?? node['Plan Rows']);
    pending.push(...(node.Plans ?? []));
  }
  return 0;
}

/**
 * Runs `statement(withExactTotal)` and returns its first row with `total` as the preference
 * asks: absent without a count preference, otherwise exact or planned. A planned total is never
 * below the rows actually returned from `offset` on, so an estimate cannot turn a page into a 416.
 * `readOnly`: the statement is the transaction's last (it commits with it).
 */
export async function runCounted<Row extends { n: number; total?: number }>(
  tx: Transaction,
  count: Preferences['count'],
  statement: (withExactTotal: boolean) => string,
  params: unknown[],
  offset: number,
  readOnly: boolean,
): Promise<Row | undefined> {
  const planned = count === 'planned' || count === 'estimated' ? await plannedRows(tx, statement(false), params) : 0;
  const exact = count === 'exact' || (count === 'estimated' && planned <= MAX_ROWS);
  const row = (await tx.query<Row>(statement(exact), params, { last: readOnly })).rows[0];
  if (row && count && !exact) row.total = Math.max(planned, row.n > 0 ? offset + row.n : 0);
  return row;
}

/** GET/HEAD on a table or view: one statement yielding the JSON body, row count and total. */
import type { Transaction } from '../database';
import { whereSql } from './build-filters';
import { buildProjection, columnsSql, orderSql, pagingSql, type BuildContext } from './build-select';
import { runCounted } from './count';
import { RestError } from './errors';
import type { QueryPlan, Paging } from './plan';
import type { Preferences } from './prefer';
import type { Relation } from './relation';
import { MAX_ROWS, pageResponse, type CountedPage } from './respond';
import type { SchemaSnapshot, Table } from './schema-cache';
import { Params, qualified } from './sql';

export interface PreparedStatement {
  readOnly: boolean;
  run(tx: Transaction): Promise<Response>;
}

export interface ReadInput {
  snapshot: SchemaSnapshot;
  table: Table;
  plan: QueryPlan;
  prefer: Preferences;
  range?: Paging;
  singular: boolean;
  head: boolean;
}

/** Checks that every embed-scoped parameter names an embed of `select` (PGRST108). */
export function checkEmbedPaths(plan: QueryPlan, known: Set<string>): void {
  for (const map of [plan.filters, plan.order, plan.paging] as Map<string, unknown>[]) {
    for (const path of map.keys()) {
      if (path !== '' && !known.has(path)) {
        throw new RestError(
          400,
          'PGRST108',
          `'${path}' is not an embedded resource in this request`,
          null,
          `Verify that '${path}' is included in the 'select' query parameter.`,
        );
      }
    }
  }
}

export function prepareRead(input: ReadInput): PreparedStatement {
  const { snapshot, table, plan, prefer } = input;
  const params = new Params();
  const context: BuildContext = { snapshot, params, plan, embedPaths: new Set(), nextAlias: 1 };
  const root: Relation = { table, label: table.name, alias: table.name };
  const projection = buildProjection(context, root, plan.select, '');
  checkEmbedPaths(plan, context.embedPaths);
  const conditions = [...whereSql(root, plan.filters.get('') ?? [], params), ...projection.conditions];
  const where = conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
  const from = `${qualified(table.schema, table.name)}`;
  const paging = { ...input.range, ...plan.paging.get('') };
  const offset = paging.offset ?? 0;
  const limit = Math.min(paging.limit ?? MAX_ROWS, MAX_ROWS);
  const inner = `select ${columnsSql(projection.columns)} from ${from}${where}${orderSql(root, plan.order.get(''), params)}${pagingSql(limit, offset)}`;
  const body = input.head ? '' : `, coalesce(json_agg(_pgrst_r), '[]')::text as body`;
  const statement = (withTotal: boolean) =>
    `select count(*)::int as n${body}${withTotal ? `, (select count(*) from ${from}${where})::int as total` : ''} from (${inner}) _pgrst_r`;

  return {
    readOnly: true,
    async run(tx) {
      const row = await runCounted<CountedPage>(tx, prefer.count, statement, params.values, offset, true);
      const headers: Record<string, string> = prefer.count ? { 'preference-applied': `count=${prefer.count}` } : {};
      return pageResponse(row ?? { n: 0 }, offset, { singular: input.singular, head: input.head, headers });
    },
  };
}

/**
 * Builds the projection of a read or a write's representation: columns, casts, JSON paths and
 * embedded resources as correlated subqueries (to-one → object, to-many → array).
 */
import { RestError } from './errors';
import { whereSql } from './build-filters';
import { fieldLabel } from './parse-field';
import type { OrderTerm } from './parse-order';
import type { EmbedItem, SelectItem } from './parse-select';
import type { QueryPlan } from './plan';
import { columnRef, fieldExpr, type Relation } from './relation';
import { resolveRelationship } from './relationships';
import type { SchemaSnapshot } from './schema-cache';
import { castSql, ident, qualified, type Params } from './sql';

export interface BuildContext {
  snapshot: SchemaSnapshot;
  params: Params;
  plan: QueryPlan;
  /** Embed paths that appear in `select`, to reject filters on anything else (PGRST108). */
  embedPaths: Set<string>;
  nextAlias: number;
}

export interface OutputColumn {
  /** SQL expression; for `alias.*` the whole star. */
  sql: string;
  name: string | null;
}

export interface Projection {
  columns: OutputColumn[];
  /** Conditions the parent rows must meet (`!inner` embeds). */
  conditions: string[];
}

export function buildProjection(
  context: BuildContext,
  relation: Relation,
  items: SelectItem[],
  path: string,
  expandStar = false,
): Projection {
  const projection: Projection = { columns: [], conditions: [] };
  for (const item of items) {
    if (item.type === 'star') {
      if (expandStar && relation.table) {
        for (const column of relation.table.columns.keys()) {
          projection.columns.push({ sql: columnRef(relation, column), name: column });
        }
      } else projection.columns.push({ sql: `${ident(relation.alias)}.*`, name: null });
    } else if (item.type === 'field') {
      const expr = fieldExpr(relation, item.field, context.params);
      projection.columns.push({
        sql: item.cast ? `(${expr})::${castSql(item.cast)}` : expr,
        name: item.alias ?? fieldLabel(item.field),
      });
    } else {
      addEmbed(context, relation, item, path, projection);
    }
  }
  return projection;
}

export function columnsSql(columns: OutputColumn[]): string {
  if (columns.length === 0) return 'null as "_pgrst_empty"';
  return columns
    .map((column) => (column.name === null ? column.sql : `${column.sql} as ${ident(column.name)}`))
    .join(', ');
}

export function orderSql(relation: Relation, terms: OrderTerm[] | undefined, params: Params): string {
  if (!terms || terms.length === 0) return '';
  const parts = terms.map((term) => {
    const nulls = term.nulls ? ` nulls ${term.nulls}` : '';
    return `${fieldExpr(relation, term.field, params)} ${term.direction}${nulls}`;
  });
  return ` order by ${parts.join(', ')}`;
}

/**
 * LIMIT/OFFSET as integer literals: they are numbers the plan parsed and capped (never client
 * text), and a literal lets the planner see a small limit (a bound parameter measured ~0.4 ms
 * slower on the marketplace listing).
 */
export function pagingSql(limit: number | undefined, offset: number | undefined): string {
  const integer = (value: number) => String(Math.max(0, Math.trunc(value)));
  let sql = '';
  if (limit !== undefined && Number.isFinite(limit)) sql += ` limit ${integer(limit)}`;
  if (offset && Number.isFinite(offset)) sql += ` offset ${integer(offset)}`;
  return sql;
}

function addEmbed(
  context: BuildContext,
  parent: Relation,
  item: EmbedItem,
  path: string,
  projection: Projection,
): void {
  if (!parent.table) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.label}' and '${item.relation}' in the schema cache`,
    );
  }
  const relationship = resolveRelationship(context.snapshot, parent.table, item.relation, item.hint);
  const name = item.alias ?? item.relation;
  const embedPath = path ? `${path}.${name}` : name;
  context.embedPaths.add(embedPath);
  const target = relationship.target;
  const child: Relation = { table: target, label: target.name, alias: `_pgrst_${context.nextAlias++}` };
  const from = `${qualified(target.schema, target.name)} as ${ident(child.alias)}`;
  const join = relationship.pairs.map(
    ([parentColumn, childColumn]) => `${columnRef(child, childColumn)} = ${columnRef(parent, parentColumn)}`,
  );
  const filters = whereSql(child, context.plan.filters.get(embedPath) ?? [], context.params);
  const inner = buildProjection(context, child, item.items, embedPath, item.spread);
  const where = [...join, ...filters, ...inner.conditions].join(' and ');

  if (item.joinType === 'inner') {
    const existsAlias = `_pgrst_${context.nextAlias++}`;
    const existsChild: Relation = { ...child, alias: existsAlias };
    const existsJoin = relationship.pairs.map(
      ([parentColumn, childColumn]) => `${columnRef(existsChild, childColumn)} = ${columnRef(parent, parentColumn)}`,
    );
    const existsFilters = whereSql(existsChild, context.plan.filters.get(embedPath) ?? [], context.params);
    projection.conditions.push(
      `exists (select 1 from ${qualified(target.schema, target.name)} as ${ident(existsAlias)} where ${[...existsJoin, ...existsFilters].join(' and ')})`,
    );
  }
  if (item.items.length === 0) return;

  if (item.spread) {
    if (relationship.kind === 'one-to-many') {
      throw new RestError(
        400,
        'PGRST100',
        `A spread operation on '${item.relation}' is only possible on a to-one relationship`,
      );
    }
    for (const column of inner.columns) {
      if (column.name === null) continue;
      projection.columns.push({ sql: `(select ${column.sql} from ${from} where ${where} limit 1)`, name: column.name });
    }
    return;
  }
  const body = `select ${columnsSql(inner.columns)} from ${from} where ${where}`;
  if (relationship.kind !== 'one-to-many') {
    projection.columns.push({ sql: `(select row_to_json(_pgrst_s) from (${body} limit 1) _pgrst_s)`, name });
  } else {
    const paging = context.plan.paging.get(embedPath);
    const tail =
      orderSql(child, context.plan.order.get(embedPath), context.params) + pagingSql(paging?.limit, paging?.offset);
    projection.columns.push({
      sql: `coalesce((select json_agg(_pgrst_s) from (${body}${tail}) _pgrst_s), '[]'::json)`,
      name,
    });
  }
}

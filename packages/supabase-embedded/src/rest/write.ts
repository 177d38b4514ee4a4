/**
 * POST (insert, upsert), PATCH (update) and DELETE. Payloads are bound as one JSON
 * parameter and expanded by `json_populate_recordset`, so Postgres converts every value.
 * Without `return=representation` no RETURNING clause is used, so a table with an INSERT
 * policy but no SELECT policy accepts inserts, as on PostgREST.
 */
import type { Transaction } from '../database';
import { whereSql } from './build-filters';
import { buildProjection, columnsSql, type BuildContext } from './build-select';
import { jsonBodyError, payloadColumnNotFound, RestError } from './errors';
import type { QueryPlan } from './plan';
import type { Preferences } from './prefer';
import { checkEmbedPaths, type PreparedStatement } from './read';
import type { Relation } from './relation';
import { firstOfArray, rawJson, singularError } from './respond';
import type { SchemaSnapshot, Table } from './schema-cache';
import { ident, Params, qualified } from './sql';

export interface WriteInput {
  snapshot: SchemaSnapshot;
  table: Table;
  plan: QueryPlan;
  prefer: Preferences;
  singular: boolean;
  /** Parsed JSON body (POST/PATCH). */
  body: unknown;
}

interface Statement {
  sql: string;
  params: unknown[];
  /** Whether the statement reports rows (`n`, `inserted`, `body`) instead of `affectedRows`. */
  reports: boolean;
}

type Row = Record<string, unknown>;

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkColumns(table: Table, columns: string[]): void {
  for (const column of columns) if (!table.columns.has(column)) throw payloadColumnNotFound(table.name, column);
}

/** `with _pgrst_w as (<dml> returning …) select n[, inserted][, body]`. */
function wrap(input: WriteInput, dml: string, params: Params, upsert: boolean): Statement {
  const { table, plan, prefer } = input;
  const represent = prefer.returning === 'representation' || prefer.returning === 'headers-only';
  if (!represent && !upsert) return { sql: dml, params: params.values, reports: false };
  const returning = [represent ? `${ident(table.name)}.*` : null, upsert ? '(xmax = 0) as "_pgrst_inserted"' : null]
    .filter(Boolean)
    .join(', ');
  const parts = ['(select count(*) from _pgrst_w)::int as n'];
  if (upsert) parts.push('(select count(*) from _pgrst_w where "_pgrst_inserted")::int as inserted');
  if (represent) {
    const context: BuildContext = { snapshot: input.snapshot, params, plan, embedPaths: new Set(), nextAlias: 1 };
    const root: Relation = { table, label: table.name, alias: table.name };
    const items =
      prefer.returning === 'headers-only'
        ? table.primaryKey.map((column) => ({ type: 'field' as const, field: { column, path: [] } }))
        : plan.select;
    const projection = buildProjection(context, root, items, '', true);
    checkEmbedPaths(plan, context.embedPaths);
    parts.push(
      `(select coalesce(json_agg(_pgrst_r), '[]')::text from (select ${columnsSql(projection.columns)} from _pgrst_w as ${ident(table.name)}) _pgrst_r) as body`,
    );
  }
  return {
    sql: `with _pgrst_w as (${dml} returning ${returning}) select ${parts.join(', ')}`,
    params: params.values,
    reports: true,
  };
}

function insertStatements(input: WriteInput): Statement[] {
  const { table, plan, prefer, body } = input;
  const rows = Array.isArray(body) ? body : [body];
  if (!rows.every(isRow)) throw jsonBodyError('The payload must be a JSON object or an array of objects');
  let columns = plan.columns;
  if (!columns) {
    const first = Object.keys(rows[0] ?? {});
    const signature = [...first].sort().join('\0');
    if (rows.some((row) => Object.keys(row).sort().join('\0') !== signature)) {
      throw new RestError(400, 'PGRST102', 'All object keys must match');
    }
    columns = first;
  }
  checkColumns(table, columns);
  const upsert = prefer.resolution !== undefined;
  let conflictSql = '';
  if (upsert) {
    const target = plan.onConflict ?? table.primaryKey;
    checkColumns(table, target);
    const targetSql = target.length > 0 ? ` (${target.map(ident).join(', ')})` : '';
    const updatable = columns.filter((column) => !target.includes(column));
    if (prefer.resolution === 'ignore-duplicates' || (updatable.length === 0 && target.length === 0)) {
      conflictSql = ` on conflict${targetSql} do nothing`;
    } else {
      if (target.length === 0) throw new RestError(400, 'PGRST100', 'An upsert needs on_conflict or a primary key');
      const sets = (updatable.length > 0 ? updatable : target).map(
        (column) => `${ident(column)} = excluded.${ident(column)}`,
      );
      conflictSql = ` on conflict${targetSql} do update set ${sets.join(', ')}`;
    }
  }
  const groups = new Map<string, { columns: string[]; rows: Row[] }>();
  for (const row of rows) {
    const present = prefer.missingDefault ? columns.filter((column) => column in row) : columns;
    const key = present.join('\0');
    const group = groups.get(key) ?? { columns: present, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  const qt = qualified(table.schema, table.name);
  const isUpsertWithReport = upsert && prefer.resolution === 'merge-duplicates';
  return [...groups.values()].map((group) => {
    const params = new Params();
    const list = group.columns.map(ident).join(', ');
    const dml =
      group.columns.length === 0
        ? `insert into ${qt} select from json_populate_recordset(null::${qt}, ${params.add(JSON.stringify(group.rows), 'json')})`
        : `insert into ${qt} (${list}) select ${list} from json_populate_recordset(null::${qt}, ${params.add(JSON.stringify(group.rows), 'json')})${conflictSql}`;
    return wrap(input, dml, params, isUpsertWithReport);
  });
}

function filteredStatement(input: WriteInput, verb: 'update' | 'delete'): Statement {
  const { table, plan } = input;
  const params = new Params();
  const root: Relation = { table, label: table.name, alias: table.name };
  const conditions = whereSql(root, plan.filters.get('') ?? [], params);
  if (conditions.length === 0) {
    throw new RestError(400, '21000', `${verb.toUpperCase()} requires a WHERE clause`);
  }
  const qt = qualified(table.schema, table.name);
  const where = ` where ${conditions.join(' and ')}`;
  if (verb === 'delete') return wrap(input, `delete from ${qt}${where}`, params, false);
  if (!isRow(input.body)) throw jsonBodyError('The payload must be a JSON object');
  const columns = Object.keys(input.body);
  checkColumns(table, columns);
  if (columns.length === 0) {
    const represent = input.prefer.returning === 'representation';
    return { sql: `select 0 as n${represent ? ", '[]' as body" : ''}`, params: [], reports: true };
  }
  const sets = columns.map((column) => `${ident(column)} = _pgrst_v.${ident(column)}`).join(', ');
  const source = `json_populate_record(null::${qt}, ${params.add(JSON.stringify(input.body), 'json')}) as _pgrst_v`;
  return wrap(input, `update ${qt} set ${sets} from ${source}${where}`, params, false);
}

export function prepareWrite(input: WriteInput, method: 'POST' | 'PATCH' | 'DELETE'): PreparedStatement {
  const statements =
    method === 'POST' ? insertStatements(input) : [filteredStatement(input, method === 'PATCH' ? 'update' : 'delete')];
  const { prefer, singular, table } = input;
  return {
    readOnly: false,
    async run(tx: Transaction) {
      let rows = 0;
      let inserted = 0;
      const bodies: string[] = [];
      for (const statement of statements) {
        const result = await tx.query<{ n: number; inserted?: number; body?: string }>(statement.sql, statement.params);
        if (!statement.reports) {
          rows += result.affectedRows ?? 0;
          inserted += result.affectedRows ?? 0;
          continue;
        }
        const row = result.rows[0];
        rows += row?.n ?? 0;
        inserted += row?.inserted ?? row?.n ?? 0;
        if (row?.body !== undefined) bodies.push(row.body);
      }
      if (singular && rows !== 1) throw singularError(rows);
      const headers: Record<string, string> = {};
      if (prefer.applied.length > 0) headers['preference-applied'] = prefer.applied.join(', ');
      const total = prefer.count ? String(rows) : '*';
      headers['content-range'] = method === 'PATCH' && rows > 0 ? `0-${rows - 1}/${total}` : `*/${total}`;
      const merged =
        bodies.length <= 1
          ? bodies[0]
          : `[${bodies
              .map((body) => body.slice(1, -1))
              .filter((part) => part.trim())
              .join(',')}]`;
      if (prefer.returning === 'headers-only') {
        const first = merged ? (JSON.parse(merged) as Row[])[0] : undefined;
        if (first && table.primaryKey.length > 0) {
          headers.location = `/${table.name}?${table.primaryKey.map((column) => `${encodeURIComponent(column)}=eq.${encodeURIComponent(String(first[column]))}`).join('&')}`;
        }
      }
      const status =
        method === 'POST'
          ? prefer.resolution === 'merge-duplicates' && inserted === 0 && rows > 0
            ? 200
            : 201
          : prefer.returning === 'representation'
            ? 200
            : 204;
      if (prefer.returning !== 'representation' || merged === undefined)
        return rawJson({ status, body: null, headers, singular });
      return rawJson({ status, body: singular ? firstOfArray(merged) : merged, headers, singular });
    },
  };
}

/**
 * What the Data API knows about the exposed schema: tables and views with their columns,
 * primary keys and foreign keys, and the callable functions. Loaded from pg_catalog in three
 * queries, kept in memory, and reloaded when a request names something the cache lacks (so
 * tables created by later migrations or tests appear without a restart).
 */
import type { Database } from '../database';

export interface Column {
  name: string;
  /** pg_attribute.attnum */
  num: number;
  type: string;
  /** pg_type.typcategory: A array, S string, N numeric, B boolean, U user (json, uuid…) … */
  category: string;
  hasDefault: boolean;
  generated: boolean;
}

export interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  foreignSchema: string;
  foreignTable: string;
  foreignColumns: string[];
}

export interface Table {
  schema: string;
  name: string;
  isView: boolean;
  columns: Map<string, Column>;
  primaryKey: string[];
  /** Column sets that are unique: the primary key and each unique constraint (one-to-one detection). */
  uniqueKeys: string[][];
}

export interface FunctionArg {
  name: string;
  type: string;
  hasDefault: boolean;
}

export interface RpcFunction {
  schema: string;
  name: string;
  args: FunctionArg[];
  returnsSet: boolean;
  /** `void`, a scalar, or a row type (composite, TABLE, OUT parameters). */
  returnKind: 'void' | 'scalar' | 'composite';
  volatility: 'i' | 's' | 'v';
}

export interface SchemaSnapshot {
  /** Catalog fingerprint at load time: a miss reloads only when it has changed. */
  fingerprint: string;
  tables: Map<string, Table>;
  foreignKeys: ForeignKey[];
  functions: Map<string, RpcFunction[]>;
}

const TABLES_SQL = `
select c.oid::int8::text as oid, c.relname as name, c.relkind as kind,
  coalesce(json_agg(json_build_object(
    'name', a.attname, 'num', a.attnum, 'type', format_type(a.atttypid, a.atttypmod), 'category', t.typcategory,
    'hasDefault', a.atthasdef or a.attidentity <> '', 'generated', a.attgenerated <> ''
  ) order by a.attnum) filter (where a.attnum is not null), '[]') as columns
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
left join pg_type t on t.oid = a.atttypid
where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'p', 'f')
group by c.oid, c.relname, c.relkind`;

const CONSTRAINTS_SQL = `
select con.conname as name, con.contype as type, c.relname as "table",
  array(select a.attname::text from unnest(con.conkey) with ordinality k(num, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.i) as columns,
  fn.nspname as "foreignSchema", fc.relname as "foreignTable",
  array(select a.attname::text from unnest(con.confkey) with ordinality k(num, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.i) as "foreignColumns"
from pg_constraint con
join pg_class c on c.oid = con.conrelid
join pg_namespace n on n.oid = c.relnamespace
left join pg_class fc on fc.oid = con.confrelid
left join pg_namespace fn on fn.oid = fc.relnamespace
where n.nspname = $1 and con.contype in ('p', 'u', 'f')`;

const FUNCTIONS_SQL = `
select p.proname as name, p.proretset as "returnsSet", p.provolatile as volatility,
  p.prorettype = 'void'::regtype as "isVoid",
  (t.typtype = 'c' or p.prorettype = 'record'::regtype) as "isComposite",
  p.pronargdefaults as "defaultCount",
  coalesce((select json_agg(json_build_object(
      'name', coalesce(p.proargnames[i], ''),
      'type', format_type(coalesce(p.proallargtypes[i], p.proargtypes[i - 1]), null),
      'mode', coalesce(p.proargmodes[i], 'i')) order by i)
    from generate_series(1, coalesce(array_length(p.proallargtypes, 1), p.pronargs)) i), '[]') as args
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type t on t.oid = p.prorettype
where n.nspname = $1 and p.prokind = 'f'`;

/**
 * Each view's defining query as a node tree: its top-level target entries carry `resorigtbl` /
 * `resorigcol`, the table column a view column comes from (what PostgREST reads too).
 */
const VIEW_RULES_SQL = `
select v.relname as view, r.ev_action::text as action
from pg_class v
join pg_namespace n on n.oid = v.relnamespace
join pg_rewrite r on r.ev_class = v.oid and r.rulename = '_RETURN'
where n.nspname = $1 and v.relkind in ('v', 'm')`;

/**
 * Changes whenever DDL touches the schema's relations, columns, functions or constraints
 * (catalog rows get a new xmin; drops lower the counts). About a millisecond, no row data.
 */
const FINGERPRINT_SQL = `
select concat_ws(':',
  (select max(xmin::text::int8) || '/' || count(*) from pg_class where relnamespace = n.oid),
  (select max(a.xmin::text::int8) || '/' || count(*) from pg_attribute a
     join pg_class c on c.oid = a.attrelid where c.relnamespace = n.oid),
  (select max(xmin::text::int8) || '/' || count(*) from pg_proc where pronamespace = n.oid),
  (select max(xmin::text::int8) || '/' || count(*) from pg_constraint where connamespace = n.oid),
  (select max(r.xmin::text::int8) || '/' || count(*) from pg_rewrite r
     join pg_class c on c.oid = r.ev_class where c.relnamespace = n.oid)
) as fingerprint
from pg_namespace n where n.nspname = $1`;

export async function schemaFingerprint(db: Database, schema: string): Promise<string> {
  const result = await db.query<{ fingerprint: string | null }>(FINGERPRINT_SQL, [schema]);
  return result.rows[0]?.fingerprint ?? '';
}

interface ViewRuleRow {
  view: string;
  action: string;
}

interface TableRow {
  oid: string;
  name: string;
  kind: string;
  columns: Column[];
}
interface ConstraintRow {
  name: string;
  type: 'p' | 'u' | 'f';
  table: string;
  columns: string[];
  foreignSchema: string | null;
  foreignTable: string | null;
  foreignColumns: string[];
}
interface FunctionRow {
  name: string;
  returnsSet: boolean;
  volatility: 'i' | 's' | 'v';
  isVoid: boolean;
  isComposite: boolean;
  defaultCount: number;
  args: { name: string; type: string; mode: string }[];
}

export async function loadSchema(db: Database, schema: string): Promise<SchemaSnapshot> {
  const fingerprint = await schemaFingerprint(db, schema);
  const [tables, constraints, functions, viewRules] = await Promise.all([
    db.query<TableRow>(TABLES_SQL, [schema]),
    db.query<ConstraintRow>(CONSTRAINTS_SQL, [schema]),
    db.query<FunctionRow>(FUNCTIONS_SQL, [schema]),
    db.query<ViewRuleRow>(VIEW_RULES_SQL, [schema]),
  ]);
  const snapshot: SchemaSnapshot = { fingerprint, tables: new Map(), foreignKeys: [], functions: new Map() };
  for (const row of tables.rows) {
    snapshot.tables.set(row.name, {
      schema,
      name: row.name,
      isView: row.kind === 'v' || row.kind === 'm',
      columns: new Map(row.columns.map((column) => [column.name, column])),
      primaryKey: [],
      uniqueKeys: [],
    });
  }
  for (const row of constraints.rows) {
    const table = snapshot.tables.get(row.table);
    if (row.type === 'p' && table) table.primaryKey = row.columns;
    if ((row.type === 'p' || row.type === 'u') && table) table.uniqueKeys.push(row.columns);
    if (row.type === 'f' && row.foreignSchema && row.foreignTable) {
      snapshot.foreignKeys.push({
        name: row.name,
        table: row.table,
        columns: row.columns,
        foreignSchema: row.foreignSchema,
        foreignTable: row.foreignTable,
        foreignColumns: row.foreignColumns,
      });
    }
  }
  addViewRelationships(snapshot, viewRules.rows, tables.rows);
  for (const row of functions.rows) {
    const inputs = row.args.filter((arg) => arg.mode === 'i' || arg.mode === 'b' || arg.mode === 'v');
    const firstDefault = inputs.length - row.defaultCount;
    const fn: RpcFunction = {
      schema,
      name: row.name,
      args: inputs.map((arg, index) => ({ name: arg.name, type: arg.type, hasDefault: index >= firstDefault })),
      returnsSet: row.returnsSet,
      returnKind: row.isVoid ? 'void' : row.isComposite ? 'composite' : 'scalar',
      volatility: row.volatility,
    };
    const overloads = snapshot.functions.get(row.name) ?? [];
    overloads.push(fn);
    snapshot.functions.set(row.name, overloads);
  }
  return snapshot;
}

const TARGET_ENTRY = /:resno (\d+) :resname (\S+) :ressortgroupref \d+ :resorigtbl (\d+) :resorigcol (\d+)/g;

/** View column → `table.column` it passes through unchanged, from the rule's target list. */
function viewColumnSources(
  view: Table,
  action: string,
  columnsByOid: Map<string, Map<number, string>>,
  tableByOid: Map<string, string>,
) {
  const sources = new Map<string, string>();
  const byNumber = new Map([...view.columns.values()].map((column) => [column.num, column.name]));
  for (const match of action.matchAll(TARGET_ENTRY)) {
    const [, resno, resname, origTable, origColumn] = match;
    const name = byNumber.get(Number(resno));
    if (name === undefined || resname !== name.replace(/([\\ (){}:,"])/g, '\\$1')) continue;
    const table = tableByOid.get(origTable!);
    const column = columnsByOid.get(origTable!)?.get(Number(origColumn));
    // The last entry wins: the top-level target list comes after range-table subqueries.
    if (table && column) sources.set(name, `${table}.${column}`);
    else sources.delete(name);
  }
  return sources;
}

/**
 * Foreign keys seen through views, as PostgREST does: a view column that passes a foreign-key
 * column (or a referenced column) through takes part in that relationship under the view's
 * column name. Two passes reach views built on views.
 */
function addViewRelationships(snapshot: SchemaSnapshot, rules: ViewRuleRow[], tables: TableRow[]): void {
  const tableByOid = new Map(tables.map((row) => [row.oid, row.name]));
  const columnsByOid = new Map(
    tables.map((row) => [row.oid, new Map(row.columns.map((column) => [column.num, column.name]))]),
  );
  const sourcesByView = new Map<string, Map<string, string>>();
  for (const rule of rules) {
    const view = snapshot.tables.get(rule.view);
    if (view) sourcesByView.set(rule.view, viewColumnSources(view, rule.action, columnsByOid, tableByOid));
  }
  const seen = new Set(snapshot.foreignKeys.map(relationshipKey));
  for (let pass = 0; pass < 2; pass++) {
    for (const [viewName, sources] of sourcesByView) {
      /** The view's names for `table`'s columns, if the view passes all of them through. */
      const rename = (table: string, columns: string[]) => {
        const names = columns.map((column) => [...sources].find(([, source]) => source === `${table}.${column}`)?.[0]);
        return names.every((name) => name !== undefined) ? (names as string[]) : null;
      };
      for (const fk of [...snapshot.foreignKeys]) {
        const derived: ForeignKey[] = [];
        const own = fk.table === viewName ? null : rename(fk.table, fk.columns);
        if (own) derived.push({ ...fk, table: viewName, columns: own });
        const referenced = fk.foreignTable === viewName ? null : rename(fk.foreignTable, fk.foreignColumns);
        if (referenced && fk.foreignSchema === snapshot.tables.get(viewName)?.schema) {
          derived.push({ ...fk, foreignTable: viewName, foreignColumns: referenced });
        }
        for (const candidate of derived) {
          const key = relationshipKey(candidate);
          if (candidate.table === candidate.foreignTable || seen.has(key)) continue;
          seen.add(key);
          snapshot.foreignKeys.push(candidate);
        }
      }
    }
  }
}

function relationshipKey(fk: ForeignKey): string {
  return `${fk.table}|${fk.columns.join(',')}|${fk.foreignSchema}.${fk.foreignTable}|${fk.foreignColumns.join(',')}`;
}

/**
 * The cache: one snapshot per schema. A lookup that misses checks the catalog fingerprint and
 * reloads only if the schema changed, so requests naming unknown things cannot force a catalog
 * reload each; concurrent misses share one check.
 */
export class SchemaCache {
  private readonly snapshots = new Map<string, Promise<SchemaSnapshot>>();
  private readonly refreshing = new Map<string, Promise<SchemaSnapshot>>();

  constructor(private readonly db: Database) {}

  snapshot(schema: string): Promise<SchemaSnapshot> {
    let pending = this.snapshots.get(schema);
    if (!pending) {
      pending = loadSchema(this.db, schema);
      pending.catch(() => this.snapshots.delete(schema));
      this.snapshots.set(schema, pending);
    }
    return pending;
  }

  /** Drops the snapshot so the next lookup reads the catalog again. */
  invalidate(schema?: string): void {
    if (schema) this.snapshots.delete(schema);
    else this.snapshots.clear();
  }

  /** Returns a snapshot satisfying `has` if the current catalog has what it asks for. */
  async lookup(schema: string, has: (snapshot: SchemaSnapshot) => boolean): Promise<SchemaSnapshot> {
    const current = await this.snapshot(schema);
    return has(current) ? current : this.refresh(schema);
  }

  /** The snapshot, reloaded first if the catalog changed since it was read. */
  refresh(schema: string): Promise<SchemaSnapshot> {
    const running = this.refreshing.get(schema);
    if (running) return running;
    const work = (async () => {
      const current = await this.snapshot(schema);
      if ((await schemaFingerprint(this.db, schema)) === current.fingerprint) return current;
      if (this.snapshots.get(schema) !== undefined) this.invalidate(schema);
      return this.snapshot(schema);
    })();
    this.refreshing.set(schema, work);
    const settle = () => this.refreshing.delete(schema);
    work.then(settle, settle);
    return work;
  }
}

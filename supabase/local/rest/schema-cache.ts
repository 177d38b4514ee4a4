/**
 * What the Data API knows about the exposed schema: tables and views with their columns,
 * primary keys and foreign keys, and the callable functions. Loaded from pg_catalog in three
 * queries, kept in memory, and reloaded when a request names something the cache lacks (so
 * tables created by later migrations or tests appear without a restart).
 */
import type { Database } from '../database';

export interface Column {
  name: string;
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
  tables: Map<string, Table>;
  foreignKeys: ForeignKey[];
  functions: Map<string, RpcFunction[]>;
}

const TABLES_SQL = `
select c.relname as name, c.relkind as kind,
  coalesce(json_agg(json_build_object(
    'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'category', t.typcategory,
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
where n.nspname = $1 and con.contype in ('p', 'f')`;

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

interface TableRow {
  name: string;
  kind: string;
  columns: Column[];
}
interface ConstraintRow {
  name: string;
  type: 'p' | 'f';
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
  const [tables, constraints, functions] = await Promise.all([
    db.query<TableRow>(TABLES_SQL, [schema]),
    db.query<ConstraintRow>(CONSTRAINTS_SQL, [schema]),
    db.query<FunctionRow>(FUNCTIONS_SQL, [schema]),
  ]);
  const snapshot: SchemaSnapshot = { tables: new Map(), foreignKeys: [], functions: new Map() };
  for (const row of tables.rows) {
    snapshot.tables.set(row.name, {
      schema,
      name: row.name,
      isView: row.kind === 'v' || row.kind === 'm',
      columns: new Map(row.columns.map((column) => [column.name, column])),
      primaryKey: [],
    });
  }
  for (const row of constraints.rows) {
    const table = snapshot.tables.get(row.table);
    if (row.type === 'p' && table) table.primaryKey = row.columns;
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

/** The cache: one snapshot per schema, reloaded (once, shared by concurrent callers) on a miss. */
export class SchemaCache {
  private snapshots = new Map<string, Promise<SchemaSnapshot>>();

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

  /** Returns a snapshot satisfying `has`, reloading once if the cached one does not. */
  async lookup(schema: string, has: (snapshot: SchemaSnapshot) => boolean): Promise<SchemaSnapshot> {
    const current = await this.snapshot(schema);
    if (has(current)) return current;
    const running = this.reloading.get(schema);
    if (running) return running;
    this.invalidate(schema);
    const fresh = this.snapshot(schema);
    this.reloading.set(schema, fresh);
    const settle = () => this.reloading.delete(schema);
    fresh.then(settle, settle);
    return fresh;
  }

  private reloading = new Map<string, Promise<SchemaSnapshot>>();
}

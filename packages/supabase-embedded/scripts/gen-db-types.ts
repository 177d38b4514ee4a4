/**
 * Generates `app/types/database.ts` from the migrations, in the shape `supabase gen types
 * typescript` produces (the Supabase CLI cannot be installed here: its npm package downloads a
 * binary). It opens the embedded database in memory with the migrations only (no seed),
 * introspects the `public` schema in pg_catalog, and writes the `Database` type with its
 * `Tables` (Row, Insert, Update, Relationships), `Views`, `Functions` (the RPCs: Args,
 * Returns), `Enums` and `CompositeTypes`, the `Tables<>` / `TablesInsert<>` / `TablesUpdate<>`
 * / `Enums<>` / `CompositeTypes<>` helpers and `Constants`, so that `createClient<Database>`
 * types every query and a renamed column fails the typecheck.
 *
 * The rules follow the CLI's generator (postgres-meta): columns, tables and functions sorted by
 * name; a view's columns are nullable (Postgres does not record NOT NULL for them); Insert makes
 * a column optional when it is nullable, has a default or is an identity; trigger functions are
 * not RPCs. Relationships are the foreign keys the embedded Data API serves, including those it
 * sees through views (`packages/supabase-embedded/src/rest/schema-cache.ts`, as PostgREST does). The file is
 * formatted with the project's Prettier settings, so it passes `prettier --check`.
 *
 * Run: `npm run db:types` (scripts/db-types.js). `packages/supabase-embedded/scripts/gen-db-types.test.ts` fails when a
 * migration changed and the file was not regenerated.
 */
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { openDatabase, type Database as Pg } from '../src/database';
import { loadSchema, type ForeignKey } from '../src/rest/schema-cache';

export const OUTPUT_FILE = 'app/types/database.ts';
const SCHEMA = 'public';
/** The oldest PostgREST the app supports (hosted Supabase runs 12.2 and later). */
const POSTGREST_VERSION = '12';

interface Relation {
  id: string;
  name: string;
  kind: 'r' | 'p' | 'f' | 'v' | 'm';
  updatable: boolean;
}

interface ColumnInfo {
  relation: string;
  name: string;
  format: string;
  nullable: boolean;
  hasDefault: boolean;
  identity: '' | 'a' | 'd';
  updatable: boolean;
}

interface TypeInfo {
  schema: string;
  name: string;
  enums: string[] | null;
  attributes: { name: string; type: string }[] | null;
}

interface FunctionInfo {
  name: string;
  modes: string[];
  names: string[];
  types: string[];
  defaultCount: number;
  returnType: string;
  returnRelation: string | null;
  returnsSet: boolean;
  rows: number | null;
  argumentTypes: string;
  result: string;
}

const RELATIONS_SQL = `
select c.oid::int8::text as id, c.relname as name, c.relkind as kind,
  c.relkind = 'v' and (pg_relation_is_updatable(c.oid, false) & 20) = 20 as updatable
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relkind in ('r', 'p', 'f', 'v', 'm') and not c.relispartition`;

const COLUMNS_SQL = `
select c.relname as relation, a.attname as name,
  coalesce(bt.typname, t.typname) as format,
  not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)) as nullable,
  a.atthasdef as "hasDefault",
  a.attidentity::text as identity,
  c.relkind in ('r', 'p') or (c.relkind in ('v', 'f') and pg_column_is_updatable(c.oid, a.attnum, false)) as updatable
from pg_attribute a
join pg_class c on c.oid = a.attrelid
join pg_namespace n on n.oid = c.relnamespace
join pg_type t on t.oid = a.atttypid
left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
where n.nspname = $1 and c.relkind in ('r', 'p', 'f', 'v', 'm') and a.attnum > 0 and not a.attisdropped`;

/** Enums of every schema (a public column may use one from elsewhere) and public composite types. */
const TYPES_SQL = `
select n.nspname as schema, t.typname as name,
  (select json_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid) as enums,
  (select json_agg(json_build_object('name', a.attname, 'type', at.typname) order by a.attnum)
     from pg_attribute a join pg_type at on at.oid = a.atttypid
     where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped) as attributes
from pg_type t
join pg_namespace n on n.oid = t.typnamespace
where t.typtype = 'e'
   or (n.nspname = $1 and t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c')`;

const FUNCTIONS_SQL = `
select p.proname as name,
  coalesce(p.proargmodes::text[],
    array_fill('i'::text, array[cardinality(coalesce(p.proallargtypes, p.proargtypes::oid[]))])) as modes,
  coalesce(p.proargnames,
    array_fill(''::text, array[cardinality(coalesce(p.proallargtypes, p.proargtypes::oid[]))])) as names,
  array(select t.typname::text
          from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(oid, i)
          join pg_type t on t.oid = u.oid order by u.i) as types,
  p.pronargdefaults as "defaultCount",
  rt.typname as "returnType",
  (select c.relname from pg_class c where c.oid = rt.typrelid and c.relkind in ('r', 'p', 'f', 'v', 'm')
     and c.relnamespace = n.oid) as "returnRelation",
  p.proretset as "returnsSet",
  case when p.proretset then nullif(p.prorows, 0) end as rows,
  pg_get_function_arguments(p.oid) as "argumentTypes",
  pg_get_function_result(p.oid) as result
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
where n.nspname = $1 and p.prokind = 'f' and rt.typname not in ('trigger', 'event_trigger')`;

/** What PostgREST accepts as a single unnamed argument: json, jsonb, text. */
const UNNAMED_ARG_TYPES = new Set(['json', 'jsonb', 'text']);
const INPUT_MODES = new Set(['i', 'b', 'v']);

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
const q = (value: string) => JSON.stringify(value);

/** The types text for the `public` schema of an open database with the migrations applied. */
export async function renderDatabaseTypes(db: Pg): Promise<string> {
  const [relations, columns, types, functions, schema] = await Promise.all([
    db.query<Relation>(RELATIONS_SQL, [SCHEMA]).then((result) => result.rows),
    db.query<ColumnInfo>(COLUMNS_SQL, [SCHEMA]).then((result) => result.rows),
    db.query<TypeInfo>(TYPES_SQL, [SCHEMA]).then((result) => result.rows),
    db.query<FunctionInfo>(FUNCTIONS_SQL, [SCHEMA]).then((result) => result.rows),
    loadSchema(db, SCHEMA),
  ]);

  const tables = relations.filter((r) => r.kind === 'r' || r.kind === 'p' || r.kind === 'f').sort(byName);
  const views = relations.filter((r) => r.kind === 'v' || r.kind === 'm').sort(byName);
  const enums = types.filter((t) => t.enums !== null);
  const publicEnums = enums.filter((t) => t.schema === SCHEMA).sort(byName);
  const composites = types.filter((t) => t.attributes !== null && t.schema === SCHEMA).sort(byName);
  const columnsOf = new Map<string, ColumnInfo[]>();
  for (const column of columns) {
    const list = columnsOf.get(column.relation) ?? [];
    list.push(column);
    columnsOf.set(column.relation, list);
  }
  for (const list of columnsOf.values()) list.sort(byName);

  const tsType = (pgType: string): string => {
    if (pgType === 'bool') return 'boolean';
    if (['int2', 'int4', 'int8', 'float4', 'float8', 'numeric'].includes(pgType)) return 'number';
    if (
      [
        'bytea',
        'bpchar',
        'varchar',
        'date',
        'text',
        'citext',
        'time',
        'timetz',
        'timestamp',
        'timestamptz',
        'uuid',
        'vector',
        'interval',
      ].includes(pgType)
    ) {
      return 'string';
    }
    if (pgType === 'json' || pgType === 'jsonb') return 'Json';
    if (pgType === 'void') return 'undefined';
    if (pgType === 'record') return 'Record<string, unknown>';
    if (pgType.startsWith('_')) return `(${tsType(pgType.slice(1))})[]`;
    const enumType =
      enums.find((t) => t.name === pgType && t.schema === SCHEMA) ?? enums.find((t) => t.name === pgType);
    if (enumType) {
      return enumType.schema === SCHEMA
        ? `Database[${q(SCHEMA)}]['Enums'][${q(enumType.name)}]`
        : enumType.enums!.map(q).join(' | ');
    }
    if (composites.some((t) => t.name === pgType)) return `Database[${q(SCHEMA)}]['CompositeTypes'][${q(pgType)}]`;
    if (tables.some((t) => t.name === pgType)) return `Database[${q(SCHEMA)}]['Tables'][${q(pgType)}]['Row']`;
    if (views.some((t) => t.name === pgType)) return `Database[${q(SCHEMA)}]['Views'][${q(pgType)}]['Row']`;
    return 'unknown';
  };
  const nullable = (type: string, isNullable: boolean) =>
    isNullable && type !== 'unknown' && type !== 'any' ? `${type} | null` : type;
  const field = (name: string, type: string, optional = false) => `${q(name)}${optional ? '?' : ''}: ${type}`;
  const rowOf = (relation: string) =>
    (columnsOf.get(relation) ?? []).map((c) => field(c.name, nullable(tsType(c.format), c.nullable))).join('\n');

  // Relationships: the Data API's foreign keys (with those seen through views), one-to-one when
  // the key's columns are the table's primary key or a unique key.
  const oneToOne = new Map<string, boolean>();
  for (const fk of schema.foreignKeys) {
    const table = schema.tables.get(fk.table);
    if (!table || table.isView || oneToOne.has(fk.name)) continue;
    const key = [...fk.columns].sort().join(',');
    oneToOne.set(
      fk.name,
      table.uniqueKeys.some((unique) => [...unique].sort().join(',') === key),
    );
  }
  const relationshipsOf = (relation: string) =>
    schema.foreignKeys
      .filter((fk) => fk.table === relation && fk.foreignSchema === SCHEMA)
      .sort(
        (a, b) =>
          a.name.localeCompare(b.name) ||
          a.foreignTable.localeCompare(b.foreignTable) ||
          JSON.stringify(a.foreignColumns).localeCompare(JSON.stringify(b.foreignColumns)),
      )
      .map(
        (fk: ForeignKey) => `{
          foreignKeyName: ${q(fk.name)}
          columns: ${JSON.stringify(fk.columns)}
          isOneToOne: ${oneToOne.get(fk.name) ?? false}
          referencedRelation: ${q(fk.foreignTable)}
          referencedColumns: ${JSON.stringify(fk.foreignColumns)}
        }`,
      )
      .join(',\n');

  const tablesText = tables
    .map((table) => {
      const cols = columnsOf.get(table.name) ?? [];
      const insert = cols.map((c) =>
        c.identity === 'a'
          ? `${q(c.name)}?: never`
          : field(c.name, nullable(tsType(c.format), c.nullable), c.nullable || c.identity !== '' || c.hasDefault),
      );
      const update = cols.map((c) =>
        c.identity === 'a' ? `${q(c.name)}?: never` : field(c.name, nullable(tsType(c.format), c.nullable), true),
      );
      return `${q(table.name)}: {
        Row: {
          ${rowOf(table.name)}
        }
        Insert: {
          ${insert.join('\n')}
        }
        Update: {
          ${update.join('\n')}
        }
        Relationships: [
          ${relationshipsOf(table.name)}
        ]
      }`;
    })
    .join('\n');

  const viewsText = views
    .map((view) => {
      const cols = columnsOf.get(view.name) ?? [];
      const writable = cols
        .map((c) => (c.updatable ? field(c.name, nullable(tsType(c.format), true), true) : `${q(c.name)}?: never`))
        .join('\n');
      return `${q(view.name)}: {
        Row: {
          ${rowOf(view.name)}
        }
        ${view.updatable ? `Insert: {\n${writable}\n}\nUpdate: {\n${writable}\n}\n` : ''}Relationships: [
          ${relationshipsOf(view.name)}
        ]
      }`;
    })
    .join('\n');

  // RPCs: what PostgREST can call by named arguments (or one unnamed json/jsonb/text argument).
  const callable = functions
    .map((fn) => {
      const args = fn.modes.map((mode, i) => ({ mode, name: fn.names[i] ?? '', type: fn.types[i] ?? '' }));
      const inputs = args.filter((arg) => INPUT_MODES.has(arg.mode));
      const firstDefault = inputs.length - fn.defaultCount;
      return {
        fn,
        inputs: inputs.map((arg, i) => ({ ...arg, hasDefault: i >= firstDefault })).sort(byName),
        tableColumns: args.filter((arg) => arg.mode === 't').sort(byName),
      };
    })
    .filter(
      ({ inputs }) =>
        inputs.every((arg) => arg.name !== '') ||
        inputs.every((arg) => arg.name !== '' || (arg.hasDefault && UNNAMED_ARG_TYPES.has(arg.type))) ||
        (inputs.length === 1 && UNNAMED_ARG_TYPES.has(inputs[0]!.type)),
    )
    .sort(
      (a, b) =>
        a.fn.name.localeCompare(b.fn.name) ||
        a.fn.argumentTypes.localeCompare(b.fn.argumentTypes) ||
        a.fn.result.localeCompare(b.fn.result),
    );
  const signature = ({ fn, inputs, tableColumns }: (typeof callable)[number]) => {
    const argsType =
      inputs.length === 0
        ? 'never'
        : `{ ${inputs.map((arg) => field(arg.name, tsType(arg.type), arg.hasDefault)).join('; ')} }`;
    let returns: string;
    let setof = '';
    if (tableColumns.length > 0) {
      returns = `{\n${tableColumns.map((arg) => field(arg.name, tsType(arg.type))).join('\n')}\n}`;
    } else if (fn.returnRelation) {
      returns = `{\n${rowOf(fn.returnRelation)}\n}`;
    } else {
      returns = tsType(fn.returnType);
    }
    const manyRows = fn.rows !== null && fn.rows > 1;
    if (fn.returnRelation) {
      setof = `SetofOptions: {
        from: "*"
        to: ${q(fn.returnRelation)}
        isOneToOne: ${!manyRows}
        isSetofReturn: ${fn.returnsSet}
      }`;
    }
    const array = fn.returnsSet && !(fn.returnRelation && !manyRows) ? '[]' : '';
    return `{ Args: ${argsType}; Returns: ${returns}${array}\n${setof} }`;
  };
  const functionNames = [...new Set(callable.map(({ fn }) => fn.name))];
  const functionsText = functionNames
    .map(
      (name) =>
        `${q(name)}: ${callable
          .filter(({ fn }) => fn.name === name)
          .map(signature)
          .join(' |\n')}`,
    )
    .join('\n');

  const enumsText = publicEnums.map((t) => `${q(t.name)}: ${t.enums!.map(q).join(' | ')}`).join('\n');
  const compositesText = composites
    .map(
      (t) =>
        `${q(t.name)}: {\n${t.attributes!.map((a) => field(a.name, nullable(tsType(a.type), true))).join('\n')}\n}`,
    )
    .join('\n');
  const orNever = (text: string) => text || '[_ in never]: never';

  const source = `/**
 * Generated by \`npm run db:types\` (packages/supabase-embedded/scripts/gen-db-types.ts) from supabase/migrations, in the
 * shape of \`supabase gen types typescript\`. Do not edit: change a migration and regenerate.
 */
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  // Allows to automatically instantiate createClient with right options
  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
  __InternalSupabase: {
    PostgrestVersion: ${q(POSTGREST_VERSION)}
  }
  ${q(SCHEMA)}: {
    Tables: {
      ${orNever(tablesText)}
    }
    Views: {
      ${orNever(viewsText)}
    }
    Functions: {
      ${orNever(functionsText)}
    }
    Enums: {
      ${orNever(enumsText)}
    }
    CompositeTypes: {
      ${orNever(compositesText)}
    }
  }
}
${HELPERS}
export const Constants = {
  ${q(SCHEMA)}: {
    Enums: {
      ${publicEnums.map((t) => `${q(t.name)}: [${t.enums!.map(q).join(', ')}]`).join(',\n')}
    },
  },
} as const
`;
  return source;
}

/**
 * One of the helper types every generated file ends with: `name<'x'>` (or `name<{ schema }, 'x'>`)
 * looks `x` up in `sections` of the default schema (or the one named) and, given a `member`
 * (`Row`, `Insert`, `Update`), takes that member of what it finds.
 */
function schemaHelper(
  name: string,
  [param, key]: [string, string],
  sections: string[],
  member?: [string, string],
): string {
  const sectionsOf = (schema: string) => {
    const parts = sections.map((section) => `${schema}["${section}"]`);
    return parts.length > 1 ? `(${parts.join(' & ')})` : parts[0];
  };
  const inDefault = sectionsOf('DefaultSchema');
  const inNamed = sectionsOf(`DatabaseWithoutInternals[${param}["schema"]]`);
  const pick = (type: string) =>
    member ? `${type} extends {\n${member[0]}: infer ${member[1]}\n}\n? ${member[1]}\n: never` : type;
  return `
export type ${name}<
  ${param} extends
    | keyof ${inDefault}
    | { schema: keyof DatabaseWithoutInternals },
  ${key} extends ${param} extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof ${inNamed}
    : never = never,
> = ${param} extends { schema: keyof DatabaseWithoutInternals }
  ? ${pick(`${inNamed}[${key}]`)}
  : ${param} extends keyof ${inDefault}
    ? ${pick(`${inDefault}[${param}]`)}
    : never
`;
}

const tableName: [string, string] = ['DefaultSchemaTableNameOrOptions', 'TableName'];

/** The helper types every generated file ends with (Tables<'x'>, TablesInsert<'x'>, …). */
const HELPERS = [
  `
type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]
`,
  schemaHelper('Tables', tableName, ['Tables', 'Views'], ['Row', 'R']),
  schemaHelper('TablesInsert', tableName, ['Tables'], ['Insert', 'I']),
  schemaHelper('TablesUpdate', tableName, ['Tables'], ['Update', 'U']),
  schemaHelper('Enums', ['DefaultSchemaEnumNameOrOptions', 'EnumName'], ['Enums']),
  schemaHelper('CompositeTypes', ['PublicCompositeTypeNameOrOptions', 'CompositeTypeName'], ['CompositeTypes']),
].join('');

/**
 * Opens a fresh in-memory database with the project's migrations (no seed) and returns the
 * formatted contents of `app/types/database.ts`.
 */
export async function generateDatabaseTypes(projectRoot: string): Promise<string> {
  const { db } = await openDatabase({ dataDir: null, supabaseDir: path.join(projectRoot, 'supabase'), seed: false });
  try {
    const source = await renderDatabaseTypes(db);
    const outputPath = path.join(projectRoot, OUTPUT_FILE);
    const options = (await resolveConfig(outputPath)) ?? {};
    return await format(source, { ...options, filepath: outputPath });
  } finally {
    await db.close();
  }
}

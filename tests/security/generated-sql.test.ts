/**
 * The SQL the Data API generates, checked by PostgreSQL's own parser (libpg-query, the server's
 * grammar compiled to WebAssembly). Generated hostile `select`, filter, logic-tree, order, embed,
 * `columns`/`on_conflict`, write and RPC requests go through the query builder exactly as the
 * handler calls it (readPlan, then prepareRead / prepareWrite / prepareRpc), and every statement
 * the builder would run is captured and parsed. Each must be:
 * - exactly one statement of the kind built (SELECT for reads and RPC, INSERT / UPDATE / DELETE,
 *   bare or in the builder's `with _pgrst_w as (…) select …`);
 * - on the requested relation and relations of the schema cache only, with no set operation;
 * - with only allow-listed functions and casts;
 * - with no client text outside parameters and quoted identifiers: every string constant is one the
 *   builder writes itself, every column reference starts with a quoted identifier or is one of the
 *   builder's own aliases, and every bare word of the statement is in the builder's vocabulary.
 * A request the builder refuses (a PostgREST-shaped 4xx) is fine; any other error is a failure.
 * Records its count for `npm run test:reliability` (tests/support/security-tally.ts).
 * SECURITY_SWEEP_RUNS scales the generated sets: 4,000 requests in `npm test`, 16,000 in the reliability suite.
 */
import fc from 'fast-check';
import { loadModule, parseSync } from 'libpg-query';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../packages/supabase-embedded/src/database';
import { RestError } from '../../packages/supabase-embedded/src/rest/errors';
import { readPlan } from '../../packages/supabase-embedded/src/rest/plan';
import { parsePrefer } from '../../packages/supabase-embedded/src/rest/prefer';
import { prepareRead } from '../../packages/supabase-embedded/src/rest/read';
import { prepareRpc } from '../../packages/supabase-embedded/src/rest/rpc';
import type {
  Column,
  RpcFunction,
  SchemaSnapshot,
  Table,
} from '../../packages/supabase-embedded/src/rest/schema-cache';
import { prepareWrite } from '../../packages/supabase-embedded/src/rest/write';
import { recordTally } from '../support/security-tally';

const RUNS = Number(process.env.SECURITY_SWEEP_RUNS ?? 250) * 2;
const SEED = Number(process.env.SECURITY_SWEEP_SEED ?? 20261123);

// ---------------------------------------------------------------------------------------------
// A schema cache shaped like the app's: to-one, to-many and one-to-one relationships, json,
// array and tsvector columns, a column whose name needs quoting, and functions of each kind.

function table(name: string, columns: [string, string, string?][], primaryKey = ['id']): Table {
  const map = new Map<string, Column>();
  columns.forEach(([column, type, category = 'S'], index) =>
    map.set(column, { name: column, num: index + 1, type, category, hasDefault: false, generated: false }),
  );
  return { schema: 'public', name, isView: false, columns: map, primaryKey, uniqueKeys: [primaryKey] };
}

const TABLES = [
  table('users', [
    ['id', 'uuid', 'U'],
    ['username', 'text'],
    ['avatar_url', 'text'],
  ]),
  table('profiles', [
    ['id', 'uuid', 'U'],
    ['bio', 'text'],
  ]),
  table('agents', [
    ['id', 'uuid', 'U'],
    ['seller_id', 'uuid', 'U'],
    ['name', 'text'],
    ['description', 'text'],
    ['price', 'numeric(10,2)', 'N'],
    ['tags', 'text[]', 'A'],
    ['data', 'jsonb', 'U'],
    ['search', 'tsvector', 'U'],
    ['created_at', 'timestamp with time zone', 'D'],
    ['odd "name", x', 'text'],
  ]),
  table('agent_versions', [
    ['id', 'uuid', 'U'],
    ['agent_id', 'uuid', 'U'],
    ['version', 'text'],
    ['file_path', 'text'],
  ]),
  table('reviews', [
    ['id', 'uuid', 'U'],
    ['agent_id', 'uuid', 'U'],
    ['buyer_id', 'uuid', 'U'],
    ['rating', 'integer', 'N'],
    ['comment', 'text'],
  ]),
];

const fk = (name: string, from: string, columns: string[], to: string, foreignColumns: string[]) => ({
  name,
  table: from,
  columns,
  foreignSchema: 'public',
  foreignTable: to,
  foreignColumns,
});

const FUNCTIONS: RpcFunction[] = [
  {
    schema: 'public',
    name: 'search_agents',
    args: [
      { name: 'query', type: 'text', hasDefault: true },
      { name: 'max_price', type: 'numeric', hasDefault: true },
    ],
    returnsSet: true,
    returnKind: 'composite',
    volatility: 's',
  },
  {
    schema: 'public',
    name: 'add',
    args: [
      { name: 'a', type: 'integer', hasDefault: false },
      { name: 'b', type: 'integer', hasDefault: false },
    ],
    returnsSet: false,
    returnKind: 'scalar',
    volatility: 'i',
  },
  { schema: 'public', name: 'numbers', args: [], returnsSet: true, returnKind: 'scalar', volatility: 'i' },
  {
    schema: 'public',
    name: 'touch',
    args: [{ name: 'at', type: 'timestamp with time zone', hasDefault: false }],
    returnsSet: false,
    returnKind: 'void',
    volatility: 'v',
  },
  {
    schema: 'public',
    name: 'seller_stats',
    args: [{ name: 'seller', type: 'uuid', hasDefault: false }],
    returnsSet: false,
    returnKind: 'composite',
    volatility: 's',
  },
  {
    schema: 'public',
    name: 'echo',
    args: [{ name: '', type: 'jsonb', hasDefault: false }],
    returnsSet: false,
    returnKind: 'scalar',
    volatility: 'v',
  },
];

const SNAPSHOT: SchemaSnapshot = {
  fingerprint: 'generated-sql',
  tables: new Map(TABLES.map((entry) => [entry.name, entry])),
  foreignKeys: [
    fk('agents_seller_id_fkey', 'agents', ['seller_id'], 'users', ['id']),
    fk('profiles_id_fkey', 'profiles', ['id'], 'users', ['id']),
    fk('agent_versions_agent_id_fkey', 'agent_versions', ['agent_id'], 'agents', ['id']),
    fk('reviews_agent_id_fkey', 'reviews', ['agent_id'], 'agents', ['id']),
    fk('reviews_buyer_id_fkey', 'reviews', ['buyer_id'], 'users', ['id']),
  ],
  functions: new Map(FUNCTIONS.map((fn) => [fn.name, [fn]])),
};

// ---------------------------------------------------------------------------------------------
// What the builder may write.

/** Functions the builder calls (the RPC functions of the schema cache are added as `public.<name>`). */
const FUNCTIONS_ALLOWED = new Set([
  'count',
  'coalesce',
  'json_agg',
  'row_to_json',
  'to_json',
  'json_populate_recordset',
  'json_populate_record',
  'json_to_record',
  'to_tsvector',
  'to_tsquery',
  'plainto_tsquery',
  'phraseto_tsquery',
  'websearch_to_tsquery',
  ...FUNCTIONS.map((fn) => `public.${fn.name}`),
]);

/** Type names the builder casts to: its own, the `select` casts PostgREST clients use, and argument types. */
const TYPE_SPELLINGS = [
  'int',
  'text',
  'json',
  'jsonb',
  'regconfig',
  'smallint',
  'integer',
  'bigint',
  'int2',
  'int4',
  'int8',
  'numeric',
  'decimal',
  'real',
  'float4',
  'float8',
  'double precision',
  'boolean',
  'bool',
  'varchar',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'uuid',
  ...FUNCTIONS.flatMap((fn) => fn.args.map((arg) => arg.type)),
];

/** Internal aliases and column names the builder writes unquoted. */
const BUILDER_ALIASES = new Set([
  '_pgrst_r',
  '_pgrst_s',
  '_pgrst_a',
  '_pgrst_v',
  '_pgrst_w',
  '_pgrst_f',
  'excluded',
  'xmax',
]);

/** Every bare word the builder writes (keywords, its functions, aliases and type names). */
const BUILDER_WORDS = new Set([
  ...'select from where and or not is null true false unknown distinct like ilike any all as limit offset order by asc desc nulls first last exists with returning insert into update set delete on conflict do nothing explain format n body total inserted'.split(
    ' ',
  ),
  ...[...FUNCTIONS_ALLOWED].filter((name) => !name.includes('.')),
  ...BUILDER_ALIASES,
  ...TYPE_SPELLINGS.flatMap((type) => type.split(/\W+/)),
  'zone',
  'pg_catalog',
]);

let allowedTypes: Set<string>;

beforeAll(async () => {
  await loadModule();
  // A type spelling's names as the parser gives them (`int` is pg_catalog.int4), plus array forms
  // and the row types json_populate_record(set) reads.
  allowedTypes = new Set(TABLES.map((entry) => `public.${entry.name}`));
  for (const spelling of TYPE_SPELLINGS) {
    for (const form of [spelling, `${spelling}[]`]) {
      const tree = parseSync(`select null::${form}`) as ParseTree;
      walk(tree, (key, node) => {
        if (key === 'TypeName') allowedTypes.add(typeName(node));
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Checking one statement.

type Node = Record<string, unknown>;
interface ParseTree {
  stmts: { stmt: Node }[];
}

/** Calls `visit(key, value)` for every object-valued property of the tree. */
function walk(value: unknown, visit: (key: string, node: Node) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (child && typeof child === 'object' && !Array.isArray(child)) visit(key, child as Node);
      walk(child, visit);
    }
  }
}

const strings = (list: unknown): string[] =>
  ((list ?? []) as Node[]).map((item) => ((item.String as Node | undefined)?.sval as string | undefined) ?? '*');

function typeName(node: Node): string {
  const names = strings(node.names);
  return `${names.join('.')}${node.arrayBounds ? '[]' : ''}`;
}

/** The statement kinds a builder call may produce. */
type Kind = 'select' | 'insert' | 'update' | 'delete';

const DML: Record<Exclude<Kind, 'select'>, string> = {
  insert: 'InsertStmt',
  update: 'UpdateStmt',
  delete: 'DeleteStmt',
};

/** Bare words, quoted identifiers, parameters and constants of `sql`, or what is out of place. */
function lexicalProblems(sql: string): string[] {
  const problems: string[] = [];
  const token =
    /\s+|"(?:[^"]|"")*"|\$\d+|'\[\]'|\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_]*|::|->>|->|<>|<=|>=|@@|@>|<@|&&|<<|>>|&<|&>|-\|-|~\*|\[\]|[(),.*=<>~]|[\s\S]/gy;
  for (let match = token.exec(sql); match; match = token.exec(sql)) {
    const text = match[0];
    if (/^[A-Za-z_]/.test(text)) {
      if (!BUILDER_WORDS.has(text.toLowerCase())) problems.push(`bare word ${text}`);
    } else if (text.length === 1 && !/[\s(),.*=<>~\d]/.test(text)) problems.push(`character ${JSON.stringify(text)}`);
  }
  return problems;
}

/** Why `sql` is outside the grammar the builder may emit (empty when it is inside). */
function problemsOf(sql: string, kind: Kind, root: string | null): string[] {
  let tree: ParseTree;
  try {
    tree = parseSync(sql) as ParseTree;
  } catch (error) {
    return [`PostgreSQL cannot parse it: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  if (tree.stmts.length !== 1) problems.push(`${tree.stmts.length} statements`);
  let statement = tree.stmts[0]?.stmt ?? {};
  if (statement.ExplainStmt) statement = (statement.ExplainStmt as Node).query as Node;
  const top = Object.keys(statement)[0];
  const dmlKinds = new Set<string>();
  walk(statement, (key) => {
    if (key === 'InsertStmt' || key === 'UpdateStmt' || key === 'DeleteStmt') dmlKinds.add(key);
  });
  if (kind === 'select') {
    if (top !== 'SelectStmt') problems.push(`a ${top} where a SELECT was built`);
    if (dmlKinds.size > 0) problems.push(`${[...dmlKinds].join(', ')} in a read`);
  } else {
    const wanted = DML[kind];
    const emptyUpdate = kind === 'update' && top === 'SelectStmt' && dmlKinds.size === 0 && /^select 0 as n/.test(sql);
    if (!emptyUpdate && top !== wanted && top !== 'SelectStmt') problems.push(`a ${top} where ${wanted} was built`);
    if (!emptyUpdate && (dmlKinds.size !== 1 || !dmlKinds.has(wanted)))
      problems.push(`statements ${[...dmlKinds].join(', ') || 'none'} where one ${wanted} was built`);
  }
  const relations = new Set<string>();
  walk(statement, (key, node) => {
    switch (key) {
      case 'SelectStmt':
        if (node.op && node.op !== 'SETOP_NONE') problems.push(`set operation ${String(node.op)}`);
        break;
      case 'InsertStmt':
      case 'UpdateStmt':
      case 'DeleteStmt': {
        const target = node.relation as Node;
        relations.add(`${String(target.schemaname)}.${String(target.relname)}`);
        if (target.schemaname !== 'public' || target.relname !== root)
          problems.push(`${key} on ${String(target.relname)}`);
        break;
      }
      case 'RangeVar': {
        const name = `${node.schemaname ? `${String(node.schemaname)}.` : ''}${String(node.relname)}`;
        relations.add(name);
        if (name === '_pgrst_w' && kind !== 'select') break;
        if (node.schemaname !== 'public' || !SNAPSHOT.tables.has(String(node.relname)))
          problems.push(`relation ${name}`);
        break;
      }
      case 'FuncCall': {
        const name = strings(node.funcname).join('.');
        if (!FUNCTIONS_ALLOWED.has(name)) problems.push(`function ${name}`);
        break;
      }
      case 'TypeName': {
        const name = typeName(node);
        if (!allowedTypes.has(name)) problems.push(`cast to ${name}`);
        break;
      }
      case 'A_Const': {
        const text = (node.sval as Node | undefined)?.sval;
        const float = (node.fval as Node | undefined)?.fval;
        if (node.sval && text !== '[]') problems.push(`string constant ${JSON.stringify(text)}`);
        if (node.fval && !/^\d+$/.test(String(float))) problems.push(`constant ${String(float)}`);
        if (node.boolval || node.bsval) problems.push(`constant ${JSON.stringify(node)}`);
        break;
      }
      case 'ColumnRef': {
        const first = strings(node.fields)[0]!;
        // Parser locations count bytes.
        const quoted = Buffer.from(sql)[Number(node.location)] === 0x22;
        if (!quoted && !BUILDER_ALIASES.has(first)) problems.push(`unquoted column reference ${first}`);
        break;
      }
      case 'ParamRef':
      case 'SubLink':
      case 'A_Expr':
        break;
      default:
        if (/^[A-Z]\w*Stmt$/.test(key) && key !== 'SelectStmt' && !Object.values(DML).includes(key))
          problems.push(`statement ${key}`);
    }
  });
  if (root && !relations.has(`public.${root}`)) problems.push(`the relation ${root} is not read`);
  problems.push(...lexicalProblems(sql));
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Running a request through the builder.

interface Built {
  statements: string[];
  refused?: string;
}

/**
 * A transaction that records each statement (and whether it was sent as the last) and answers with
 * an empty result of the right shape.
 */
function recorder(statements: string[], lasts: boolean[] = []): Transaction {
  return {
    async query<T>(sql: string, _params?: unknown[], options?: { last?: boolean }) {
      statements.push(sql);
      lasts.push(Boolean(options?.last));
      const row = { n: 0, inserted: 0, body: '[]', 'QUERY PLAN': [{ Plan: { 'Node Type': 'Limit', 'Plan Rows': 0 } }] };
      return { rows: [row] as T[], affectedRows: 0, fields: [] };
    },
    async exec() {
      throw new Error('the Data API never runs a script');
    },
  };
}

/**
 * Which statements commit with themselves (`last`): only what writes nothing. A write answered
 * after its deadline is reported as failed and must roll back, so its COMMIT waits for its answer.
 */
describe('a read commits with its statement, a write never does', () => {
  const lastFlags = async (run: (tx: Transaction) => Promise<unknown>) => {
    const flags: boolean[] = [];
    await run(recorder([], flags));
    return flags;
  };
  const rpc = (name: string, method: 'GET' | 'POST', args: Record<string, unknown>) =>
    prepareRpc({
      snapshot: SNAPSHOT,
      schema: 'public',
      name,
      plan: readPlan(new URLSearchParams(), method === 'POST' ? {} : { rpcArgs: new Set(Object.keys(args)) }),
      prefer: parsePrefer(null),
      args,
      rawBody: args,
      method,
      singular: false,
    });

  it('marks reads and read-only calls last, and no volatile call or write', async () => {
    expect(await lastFlags((tx) => rpc('add', 'POST', { a: 1, b: 2 }).run(tx))).toEqual([true]);
    expect(await lastFlags((tx) => rpc('search_agents', 'GET', {}).run(tx))).toEqual([true]);
    // A volatile call by POST may write: its COMMIT waits for its answer.
    expect(await lastFlags((tx) => rpc('touch', 'POST', { at: '2026-01-01T00:00:00Z' }).run(tx))).toEqual([false]);
    const table = SNAPSHOT.tables.get('agents')!;
    const read = prepareRead({
      snapshot: SNAPSHOT,
      table,
      plan: readPlan(new URLSearchParams()),
      prefer: parsePrefer(null),
      singular: false,
      head: false,
    });
    expect(await lastFlags((tx) => read.run(tx))).toEqual([true]);
    const write = prepareWrite(
      {
        snapshot: SNAPSHOT,
        table,
        plan: readPlan(new URLSearchParams()),
        prefer: parsePrefer(null),
        singular: false,
        body: { name: 'x' },
      },
      'POST',
    );
    expect((await lastFlags((tx) => write.run(tx))).every((last) => !last)).toBe(true);
  });
});

interface ApiCall {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query: [string, string][];
  prefer?: string;
  body?: unknown;
}

/** What the handler does between the URL and the database, with the statements captured. */
async function build(request: ApiCall): Promise<Built> {
  const statements: string[] = [];
  const search = new URLSearchParams(request.query);
  const prefer = parsePrefer(request.prefer ?? null);
  try {
    if (request.path.startsWith('rpc/')) {
      const name = request.path.slice(4);
      const method = request.method as 'GET' | 'HEAD' | 'POST';
      const argNames = new Set((SNAPSHOT.functions.get(name) ?? []).flatMap((fn) => fn.args.map((arg) => arg.name)));
      const plan = readPlan(search, method === 'POST' ? {} : { rpcArgs: argNames });
      const args =
        method === 'POST'
          ? request.body && typeof request.body === 'object' && !Array.isArray(request.body)
            ? (request.body as Record<string, unknown>)
            : {}
          : Object.fromEntries(plan.rest);
      const prepared = prepareRpc({
        snapshot: SNAPSHOT,
        schema: 'public',
        name,
        plan,
        prefer,
        args,
        rawBody: request.body,
        method,
        singular: false,
      });
      await prepared.run(recorder(statements));
    } else {
      const target = SNAPSHOT.tables.get(request.path)!;
      const plan = readPlan(search);
      const prepared =
        request.method === 'GET' || request.method === 'HEAD'
          ? prepareRead({
              snapshot: SNAPSHOT,
              table: target,
              plan,
              prefer,
              singular: false,
              head: request.method === 'HEAD',
            })
          : prepareWrite(
              { snapshot: SNAPSHOT, table: target, plan, prefer, singular: false, body: request.body },
              request.method,
            );
      await prepared.run(recorder(statements));
    }
  } catch (error) {
    if (error instanceof RestError && error.status >= 300 && error.status < 500) {
      return { statements, refused: error.code };
    }
    throw error;
  }
  return { statements };
}

function kindOf(request: ApiCall): Kind {
  if (request.path.startsWith('rpc/')) return 'select';
  return request.method === 'POST'
    ? 'insert'
    : request.method === 'PATCH'
      ? 'update'
      : request.method === 'DELETE'
        ? 'delete'
        : 'select';
}

// ---------------------------------------------------------------------------------------------
// Hostile requests.

const COLUMNS = [...new Set(TABLES.flatMap((entry) => [...entry.columns.keys()]))];
const RELATIONS = [...TABLES.map((entry) => entry.name), ...SNAPSHOT.foreignKeys.flatMap((key) => key.columns)];
const HINTS = [...SNAPSHOT.foreignKeys.map((key) => key.name), 'inner', 'left'];
const SQL_WORDS =
  'select from where union all pg_roles rolname as y x false true or and null limit 1 ; -- /* */ pg_sleep(10) current_user'.split(
    ' ',
  );
const OPERATORS =
  'eq neq gt gte lt lte like ilike match imatch is isdistinct in cs cd ov sl sr nxl nxr adj fts plfts phfts wfts'.split(
    ' ',
  );
const CASTS = [
  'text',
  'int',
  'integer',
  'bigint',
  'numeric',
  'float8',
  'boolean',
  'json',
  'jsonb',
  'date',
  'uuid',
  'text[]',
];

/** Text a client controls: SQL fragments, quotes and escapes, separators, unicode. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.array(fc.constantFrom(...SQL_WORDS), { minLength: 1, maxLength: 10 }).map((words) => words.join(' ')),
  fc.constantFrom(
    '"',
    '\\',
    '\\\\',
    '\\"',
    '""',
    "'",
    "''",
    '$1',
    '$$',
    "E'\\x'",
    'U&"\\0061"',
    '\u0000',
    ' ',
    '\t\n',
    '%',
  ),
);

/** How a client writes a known name: bare when it can be, else quoted with backslash escapes. */
const spell = (known: string) => (/^[A-Za-z0-9_]+$/.test(known) ? known : `"${known.replace(/["\\]/g, '\\$&')}"`);

/** SQL-like words joined by spaces (what a pasted cast would run). */
const sqlWords = fc
  .array(fc.constantFrom(...SQL_WORDS, 'text', 'int'), { minLength: 1, maxLength: 12 })
  .map((words) => words.join(' '));

/**
 * The request grammar with hostile text in it. At `wild` 0 every part is well formed except what
 * the grammar lets a client write freely (quoted names with escapes, JSON keys, values, casts);
 * a higher `wild` also puts hostile text where a name, operator or separator belongs.
 */
function grammar(wild: number, columns: string[] = COLUMNS) {
  const or = <T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>, weight = 30) =>
    wild === 0 ? valid : fc.oneof({ weight, arbitrary: valid }, { weight: wild, arbitrary: hostile });

  /** A known name, or a quoted one with SQL, quotes and escapes in it. */
  const name = (known: string[]) =>
    or(
      fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...known.map(spell)) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.oneof(fc.constantFrom(...known), hostileText), fc.constantFrom('', '\\', '\\\\', '\\"', '""'))
            .map(([text, tail]) => `"${text}${tail}"`),
        },
      ),
      hostileText,
    );

  const jsonPath = fc.array(
    fc.tuple(fc.constantFrom('->', '->>'), fc.oneof(name(['k', 'key', '0', '-1']), fc.constantFrom('0', '-2', '1'))),
    { maxLength: 2 },
  );
  const field = fc
    .tuple(name(columns), fc.oneof(fc.constant([] as [string, string][]), jsonPath))
    .map(([column, path]) => column + path.map(([op, key]) => op + key).join(''));

  /** A cast: a type name, or type-like text with spaces and SQL in it. */
  const cast = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...CASTS, 'TEXT') },
    { weight: 1, arbitrary: sqlWords },
  );

  const select: fc.Arbitrary<string> = fc.letrec<{ item: string; list: string }>((tie) => ({
    item: or(
      fc.oneof(
        { weight: 1, arbitrary: fc.constant('*') },
        {
          weight: 8,
          arbitrary: fc
            .tuple(fc.option(name(['alias', 'y', ...columns]), { freq: 3 }), field, fc.option(cast, { freq: 3 }))
            .map(
              ([alias, item, type]) => `${alias === null ? '' : `${alias}:`}${item}${type === null ? '' : `::${type}`}`,
            ),
        },
        {
          weight: 2,
          arbitrary: fc
            .tuple(
              fc.constantFrom('', '', '...'),
              fc.option(name(['alias', 'seller']), { freq: 3 }),
              name(RELATIONS),
              fc.array(name(HINTS), { maxLength: 2 }),
              tie('list'),
            )
            .map(
              ([spread, alias, relation, hints, items]) =>
                `${spread}${alias === null || spread ? '' : `${alias}:`}${relation}${hints.map((hint) => `!${hint}`).join('')}(${items})`,
            ),
        },
      ),
      hostileText,
    ),
    list: or(
      fc.array(tie('item'), { minLength: 1, maxLength: 3 }).map((items) => items.join(',')),
      fc
        .array(fc.oneof(tie('item'), fc.constantFrom(',', ':', '::', '(', ')', '!', '->', '...', ' ', '"', '\\')), {
          maxLength: 6,
        })
        .map((parts) => parts.join('')),
      8,
    ),
  })).list;

  /** The modifier an operator takes: a quantifier for comparisons, a configuration for text search. */
  const modifierFor = (operator: string): fc.Arbitrary<string> =>
    /^(eq|neq|gt|gte|lt|lte|like|ilike|match|imatch)$/.test(operator)
      ? fc.constantFrom('', '', '(any)', '(all)')
      : /fts$/.test(operator)
        ? fc.constantFrom('', '(english)', '(simple)')
        : fc.constant('');

  /** A value as the operator expects it, or hostile text (values are always bound). */
  const valueFor = (operator: string): fc.Arbitrary<string> =>
    operator === 'in'
      ? or(fc.constantFrom('(1,2)', '("a,b",c)', '()', '(null)'), hostileText)
      : operator === 'is'
        ? or(fc.constantFrom('null', 'true', 'not_null', 'unknown'), hostileText)
        : fc.oneof(fc.constantFrom('1', 'x', '{1,2}', '[1,2)', '^(a)\\1$', 'x y', 'a*b'), hostileText, sqlWords);

  const operation = fc.tuple(fc.boolean(), or(fc.constantFrom(...OPERATORS), hostileText)).chain(([negate, operator]) =>
    fc
      .tuple(
        or(
          modifierFor(operator),
          hostileText.map((text) => `(${text})`),
        ),
        valueFor(operator),
      )
      .map(([modifier, value]) => `${negate ? 'not.' : ''}${operator}${modifier}.${value}`),
  );

  const logicTree: fc.Arbitrary<string> = fc.letrec<{ tree: string }>((tie) => ({
    tree: fc
      .array(
        fc.oneof(
          { weight: 3, arbitrary: fc.tuple(field, operation).map(([key, op]) => `${key}.${op}`) },
          {
            weight: 1,
            arbitrary: fc
              .tuple(fc.constantFrom('and', 'or', 'not.and', 'not.or'), tie('tree'))
              .map(([operator, tree]) => `${operator}${tree}`),
          },
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((parts) => `(${parts.join(',')})`),
  })).tree;

  const orderTerm = fc
    .tuple(
      field,
      or(fc.constantFrom('', '.asc', '.desc'), hostileText),
      fc.constantFrom('', '', '.nullsfirst', '.nullslast'),
    )
    .map((parts) => parts.join(''));

  /** An embed path a filter, order or paging parameter may be scoped to. */
  const scope = fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: name(RELATIONS).map((relation) => `${relation}.`) },
  );

  const pair = (key: string, value: string): [string, string] => [key, value];
  const parameter: fc.Arbitrary<[string, string]> = or(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.tuple(scope, field, operation).map(([path, key, value]) => pair(`${path}${key}`, value)),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(scope, fc.constantFrom('or', 'and', 'not.or', 'not.and'), logicTree)
          .map(([path, key, tree]) => pair(`${path}${key}`, tree)),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(scope, fc.array(orderTerm, { minLength: 1, maxLength: 3 }))
          .map(([path, terms]) => pair(`${path}order`, terms.join(','))),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            scope,
            fc.constantFrom('limit', 'offset'),
            or(fc.constantFrom('0', '5', '999999999999999'), hostileText),
          )
          .map(([path, key, value]) => pair(`${path}${key}`, value)),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('columns', 'on_conflict'), fc.array(name(columns), { minLength: 1, maxLength: 3 }))
          .map(([key, names]) => pair(key, names.join(','))),
      },
    ),
    fc.tuple(hostileText, hostileText),
    10,
  );

  return { select, parameter };
}

const PREFER = [
  undefined,
  'count=exact',
  'count=planned',
  'return=representation',
  'return=headers-only',
  'resolution=merge-duplicates,return=representation',
  'resolution=ignore-duplicates',
  'missing=default,return=representation',
];

const body = fc.oneof(
  fc.dictionary(
    fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...COLUMNS) }, { weight: 1, arbitrary: hostileText }),
    fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    { maxKeys: 3 },
  ),
  fc.array(fc.dictionary(fc.constantFrom('name', 'description', 'price'), fc.string(), { maxKeys: 2 }), {
    maxLength: 2,
  }),
);

function tableRequest(wild: number): fc.Arbitrary<ApiCall> {
  return fc.oneof(...TABLES.map((target) => tableRequestOn(target, wild)));
}

function tableRequestOn(target: Table, wild: number): fc.Arbitrary<ApiCall> {
  const { select, parameter } = grammar(wild, [...target.columns.keys()]);
  return fc
    .record({
      method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PATCH', 'DELETE'),
      path: fc.constant(target.name),
      select: fc.option(select, { freq: 5, nil: undefined }),
      query: fc.array(parameter, { maxLength: 3 }),
      prefer: fc.constantFrom(...PREFER),
      body,
    })
    .map(({ method, path, select: text, query, prefer, body: payload }) => ({
      method: method as ApiCall['method'],
      path,
      query: text === undefined ? query : [['select', text] as [string, string], ...query],
      prefer,
      body: method === 'POST' || method === 'PATCH' ? payload : undefined,
    }));
}

function rpcRequest(wild: number): fc.Arbitrary<ApiCall> {
  const { select, parameter } = grammar(wild);
  const argName = fc.constantFrom('query', 'max_price', 'a', 'b', 'at', 'seller');
  return fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'HEAD'),
      fn: fc.constantFrom(...FUNCTIONS.map((fn) => fn.name)),
      select: fc.option(select, { freq: 3, nil: undefined }),
      args: fc.array(fc.tuple(wild === 0 ? argName : fc.oneof(argName, hostileText), hostileText), { maxLength: 2 }),
      query: fc.array(parameter, { maxLength: 3 }),
      prefer: fc.constantFrom(undefined, 'count=exact', 'count=planned'),
    })
    .map(({ method, fn, select: text, args, query, prefer }) => ({
      method: method as ApiCall['method'],
      path: `rpc/${fn}`,
      query: [
        ...(text === undefined ? [] : [['select', text] as [string, string]]),
        ...(method === 'POST' ? [] : args),
        ...query,
      ],
      prefer,
      body: method === 'POST' ? Object.fromEntries(args) : undefined,
    }));
}

// ---------------------------------------------------------------------------------------------

describe('generated SQL', () => {
  it('every statement built from hostile requests is one statement of the grammar', async () => {
    const failures: string[] = [];
    let cases = 0;
    let statements = 0;
    let refused = 0;
    const check = async (request: ApiCall) => {
      cases++;
      const label = `${request.method} /rest/v1/${request.path}?${new URLSearchParams(request.query).toString()}`;
      let built: Built;
      try {
        built = await build(request);
      } catch (error) {
        failures.push(`${label}: the builder failed with ${(error as Error).stack?.split('\n').slice(0, 2).join(' ')}`);
        return true;
      }
      if (built.refused) refused++;
      for (const sql of built.statements) {
        statements++;
        const root = request.path.startsWith('rpc/') || /^select 0 as n/.test(sql) ? null : request.path;
        const problems = problemsOf(sql, kindOf(request), root);
        if (problems.length > 0) failures.push(`${label}: ${problems.slice(0, 3).join('; ')} in ${sql.slice(0, 600)}`);
      }
      return true;
    };
    // The known shapes first, then generated ones.
    const attack: ApiCall = {
      method: 'GET',
      path: 'agents',
      query: [
        [
          'select',
          '"x\\\\":name::text as y from agents where false union all select rolname from pg_roles union all select name',
        ],
      ],
    };
    await check(attack);
    expect((await build(attack)).refused).toBe('PGRST100');
    for (const wild of [0, 3]) {
      await fc.assert(fc.asyncProperty(tableRequest(wild), check), { numRuns: RUNS * 3, seed: SEED + wild });
      await fc.assert(fc.asyncProperty(rpcRequest(wild), check), { numRuns: RUNS, seed: SEED + wild });
    }
    recordTally({
      check: 'Generated SQL',
      counts: `statements outside the grammar (of ${statements} built; PostgreSQL's parser: kind, relations, functions, casts, client text)`,
      cases,
      failures,
    });
    expect(statements).toBeGreaterThan(cases / 8);
    expect(refused).toBeGreaterThan(0);
    expect(failures.slice(0, 10)).toEqual([]);
  }, 120_000);
});

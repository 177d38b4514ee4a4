/**
 * `rpc/<fn>`: arguments matched by name. A POST JSON object is bound as one JSON
 * parameter and typed by `json_to_record`; GET query arguments are bound one by one, each cast to
 * its parameter's type (as PostgREST does). Postgres converts them either way; set results accept
 * filters, order and paging like a table.
 */
import type { Transaction } from '../database';
import { whereSql } from './build-filters';
import { buildProjection, columnsSql, orderSql, pagingSql, type BuildContext } from './build-select';
import { runCounted } from './count';
import { RestError } from './errors';
import type { Paging, QueryPlan } from './plan';
import type { Preferences } from './prefer';
import { checkEmbedPaths, type PreparedStatement } from './read';
import type { Relation } from './relation';
import { MAX_ROWS, pageResponse, rawJson, type CountedPage } from './respond';
import type { RpcFunction, SchemaSnapshot } from './schema-cache';
import { ident, Params, qualified } from './sql';

export interface RpcInput {
  snapshot: SchemaSnapshot;
  schema: string;
  name: string;
  plan: QueryPlan;
  prefer: Preferences;
  /** Named arguments (POST body object or GET query), or the raw body for a single json argument. */
  args: Record<string, unknown>;
  rawBody: unknown;
  method: 'GET' | 'HEAD' | 'POST';
  range?: Paging;
  singular: boolean;
}

const JSON_TYPES = new Set(['json', 'jsonb']);

function chooseFunction(input: RpcInput): { fn: RpcFunction; wholeBody: boolean } {
  const overloads = input.snapshot.functions.get(input.name) ?? [];
  const given = Object.keys(input.args);
  const matches = overloads.filter(
    (fn) =>
      given.every((name) => fn.args.some((arg) => arg.name === name)) &&
      fn.args.every((arg) => arg.hasDefault || given.includes(arg.name)),
  );
  if (matches.length === 0 && input.method === 'POST') {
    const single = overloads.filter(
      (fn) => fn.args.length === 1 && fn.args[0]!.name === '' && JSON_TYPES.has(fn.args[0]!.type),
    );
    if (single.length === 1) return { fn: single[0]!, wholeBody: true };
  }
  if (matches.length === 1) return { fn: matches[0]!, wholeBody: false };
  const signature = `${input.schema}.${input.name}(${given.join(', ')})`;
  if (matches.length === 0) {
    throw new RestError(
      404,
      'PGRST202',
      `Could not find the function ${signature} in the schema cache`,
      `Searched for the function ${input.schema}.${input.name} with ${given.length > 0 ? `parameters ${given.join(', ')}` : 'no parameters'} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
      null,
    );
  }
  throw new RestError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${matches.map((fn) => `${input.schema}.${input.name}(${fn.args.map((arg) => `${arg.name} => ${arg.type}`).join(', ')})`).join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  );
}

export function prepareRpc(input: RpcInput): PreparedStatement {
  const { fn, wholeBody } = chooseFunction(input);
  const params = new Params();
  const callee = qualified(input.schema, input.name);
  let call: string;
  let argsFrom = '';
  if (wholeBody) {
    call = `${callee}(${params.add(JSON.stringify(input.rawBody ?? {}), fn.args[0]!.type)})`;
  } else if (input.method !== 'POST') {
    // GET/HEAD: each argument is its own typed parameter, as PostgREST does since v13 (PR #3643),
    // instead of a LATERAL json_to_record. An inlinable SQL function then sees constants, so
    // Postgres folds its `arg is null or …` conditions and the caller's order and limit reach
    // the indexes (docs/decisions/011-catalogue-filters-and-categories.md).
    const used = fn.args.filter((arg) => arg.name in input.args);
    call = `${callee}(${used.map((arg) => `${ident(arg.name)} => ${params.add(String(input.args[arg.name]), arg.type)}`).join(', ')})`;
  } else {
    const used = fn.args.filter((arg) => arg.name in input.args);
    if (used.length > 0) {
      const record = used.map((arg) => `${ident(arg.name)} ${arg.type}`).join(', ');
      argsFrom = ` from json_to_record(${params.add(JSON.stringify(input.args), 'json')}) as _pgrst_a(${record})`;
    }
    call = `${callee}(${used.map((arg) => `${ident(arg.name)} => _pgrst_a.${ident(arg.name)}`).join(', ')})`;
  }
  const readOnly = input.method !== 'POST' || fn.volatility !== 'v';
  const head = input.method === 'HEAD';

  if (!fn.returnsSet) {
    const sql =
      fn.returnKind === 'void'
        ? `select ${call}${argsFrom}`
        : fn.returnKind === 'scalar'
          ? `select to_json(${call})::text as body${argsFrom}`
          : `select to_json(_pgrst_f)::text as body${argsFrom ? `${argsFrom}, ` : ' from '}${call} as _pgrst_f`;
    return {
      readOnly,
      async run(tx: Transaction) {
        // A read commits with its statement. A write waits for its answer: answered after its
        // deadline it must roll back, and a commit sent with it would already have been made.
        const result = await tx.query<{ body?: string }>(sql, params.values, { last: readOnly });
        if (fn.returnKind === 'void') return rawJson({ status: 204, body: null, headers: {}, singular: false });
        const body = result.rows[0]?.body ?? 'null';
        const headers = { 'content-range': '0-0/*' };
        return rawJson({ status: 200, body: head ? null : body, headers, singular: input.singular });
      },
    };
  }

  const relation: Relation = { label: input.name, alias: input.name };
  const context: BuildContext = {
    snapshot: input.snapshot,
    params,
    plan: input.plan,
    embedPaths: new Set(),
    nextAlias: 1,
  };
  const scalar = fn.returnKind === 'scalar';
  const projection = scalar
    ? { columns: [{ sql: `${ident(input.name)}`, name: input.name }], conditions: [] }
    : buildProjection(context, relation, input.plan.select, '');
  checkEmbedPaths(input.plan, context.embedPaths);
  const conditions = whereSql(relation, input.plan.filters.get('') ?? [], params);
  const where = conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
  const from = argsFrom ? `${argsFrom}, ${call} as ${ident(input.name)}` : ` from ${call} as ${ident(input.name)}`;
  const paging = { ...input.range, ...input.plan.paging.get('') };
  const offset = paging.offset ?? 0;
  const limit = Math.min(paging.limit ?? MAX_ROWS, MAX_ROWS);
  const inner = `select ${columnsSql(projection.columns)}${from}${where}${orderSql(relation, input.plan.order.get(''), params)}${pagingSql(limit, offset)}`;
  const aggregate = scalar ? `json_agg(_pgrst_r.${ident(input.name)})` : 'json_agg(_pgrst_r)';
  const statement = (withTotal: boolean) =>
    `select count(*)::int as n, coalesce(${aggregate}, '[]')::text as body${withTotal ? `, (select count(*)${from}${where})::int as total` : ''} from (${inner}) _pgrst_r`;
  return {
    readOnly,
    async run(tx: Transaction) {
      const row = await runCounted<CountedPage>(tx, input.prefer.count, statement, params.values, offset, readOnly);
      return pageResponse(row ?? { n: 0, body: '[]' }, offset, { singular: input.singular, head });
    },
  };
}

/**
 * The Data API request pipeline: profile and auth checks, body parsing, routing to a table or
 * a function, schema-cache lookup (reloaded once on a miss), then one transaction as the
 * caller's role. Everything a client can get wrong becomes a PostgREST-shaped 4xx.
 */
import type { ServiceContext } from '../context';
import { jsonResponse } from '../context';
import { MAX_BODY_BYTES } from '../gateway';
import { parseJson } from '../json-body';
import { containsNul } from '../text';
import { claimsFor } from './auth';
import { BodyTooLargeError, readBodyBytes } from './body';
import { errorResponse, jsonBodyError, RestError, toRestError } from './errors';
import { rangeHeader, readPlan } from './plan';
import { parsePrefer } from './prefer';
import { prepareRead, type PreparedStatement } from './read';
import { stripNullsFrom, wantsObject, wantsStrippedNulls } from './respond';
import { prepareRpc } from './rpc';
import type { SchemaCache, SchemaSnapshot } from './schema-cache';
import { runAsRequest } from './transaction';
import { prepareWrite } from './write';

const EXPOSED_SCHEMAS = ['public', 'graphql_public'];
/** Codes raised from the schema cache that may just mean "the cache is stale". */
const CACHE_MISS_CODES = new Set(['42703', 'PGRST204', 'PGRST200', 'PGRST202']);

function schemaOf(request: Request): string {
  const write = !['GET', 'HEAD'].includes(request.method);
  const profile = request.headers.get(write ? 'content-profile' : 'accept-profile');
  const schema = profile?.trim() || 'public';
  if (!EXPOSED_SCHEMAS.includes(schema)) {
    throw new RestError(
      406,
      'PGRST106',
      `Invalid schema: ${schema}`,
      null,
      `Only the following schemas are exposed: ${EXPOSED_SCHEMAS.join(', ')}`,
    );
  }
  return schema;
}

async function parseBody(request: Request): Promise<unknown> {
  let bytes: Uint8Array;
  try {
    bytes = await readBodyBytes(request, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new RestError(413, 'PGRST413', 'Payload too large');
    throw error;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw jsonBodyError((error as Error).message);
  }
  // PostgREST's answer to `\u0000` in a JSON body (Postgres cannot store it in text or jsonb).
  if (containsNul(value)) {
    throw new RestError(400, '22P05', 'unsupported Unicode escape sequence', '\\u0000 cannot be converted to text.');
  }
  return value;
}

function decodePath(path: string): string[] {
  try {
    return path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new RestError(400, 'PGRST100', `"failed to parse path (${path})" (line 1, column 1)`);
  }
}

export function createHandler(context: ServiceContext, cache: SchemaCache) {
  return async function handle(request: Request, path: string): Promise<Response> {
    let role = 'anon';
    try {
      const segments = decodePath(path);
      if (segments.length === 0)
        return jsonResponse({ swagger: '2.0', info: { title: 'standard public schema' }, paths: {} });
      const claims = await claimsFor(request, context.keys, context.sessions);
      role = claims.role;
      const schema = schemaOf(request);
      const method = request.method.toUpperCase();
      const isRpc = segments[0] === 'rpc' && segments.length === 2;
      if (!isRpc && segments.length !== 1) throw tableNotFound(schema, segments.join('/'));
      const body = method === 'POST' || method === 'PATCH' || method === 'PUT' ? await parseBody(request) : undefined;
      const url = new URL(request.url);
      const prefer = parsePrefer(request.headers.get('prefer'));
      const singular = wantsObject(request.headers.get('accept'));
      const range = rangeHeader(request.headers.get('range'));

      const prepare = async (snapshot: SchemaSnapshot): Promise<PreparedStatement> => {
        if (isRpc) {
          const name = segments[1]!;
          if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
            throw new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
          }
          const argNames = new Set(
            (snapshot.functions.get(name) ?? []).flatMap((fn) => fn.args.map((arg) => arg.name)),
          );
          const plan = readPlan(url.searchParams, method === 'POST' ? {} : { rpcArgs: argNames });
          let args: Record<string, unknown> = Object.fromEntries(plan.rest);
          if (method === 'POST') {
            if (body !== undefined && (typeof body !== 'object' || body === null)) throw jsonBodyError();
            args = Array.isArray(body) || body === undefined ? {} : (body as Record<string, unknown>);
          }
          return prepareRpc({ snapshot, schema, name, plan, prefer, args, rawBody: body, method, range, singular });
        }
        const table = snapshot.tables.get(segments[0]!);
        if (!table) throw tableNotFound(schema, segments[0]!, snapshot);
        const plan = readPlan(url.searchParams);
        if (method === 'GET' || method === 'HEAD') {
          return prepareRead({ snapshot, table, plan, prefer, range, singular, head: method === 'HEAD' });
        }
        if (method === 'POST' || method === 'PATCH' || method === 'DELETE') {
          if (method !== 'DELETE' && body === undefined) throw jsonBodyError();
          return prepareWrite({ snapshot, table, plan, prefer, singular, body }, method);
        }
        throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
      };

      const wanted = (snapshot: SchemaSnapshot) =>
        isRpc ? snapshot.functions.has(segments[1]!) : snapshot.tables.has(segments[0]!);
      let snapshot = await cache.lookup(schema, wanted);
      let statement: PreparedStatement;
      try {
        statement = await prepare(snapshot);
      } catch (error) {
        if (!(error instanceof RestError) || !CACHE_MISS_CODES.has(error.code)) throw error;
        const fresh = await cache.refresh(schema);
        if (fresh === snapshot) throw error;
        snapshot = fresh;
        statement = await prepare(snapshot);
      }
      const response = await runAsRequest(
        context.db,
        claims,
        { method, path, headers: request.headers, readOnly: statement.readOnly },
        (tx) => statement.run(tx),
      );
      return wantsStrippedNulls(request.headers.get('accept')) ? await stripNullsFrom(response) : response;
    } catch (error) {
      return errorResponse(toRestError(error, role));
    }
  };
}

function tableNotFound(schema: string, name: string, snapshot?: SchemaSnapshot): RestError {
  const close = snapshot ? closestName(name, [...snapshot.tables.keys()]) : undefined;
  return new RestError(
    404,
    'PGRST205',
    `Could not find the table '${schema}.${name}' in the schema cache`,
    null,
    close ? `Perhaps you meant the table '${schema}.${close}'` : null,
  );
}

/** The known name with the smallest edit distance, if reasonably close. */
function closestName(name: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(3, Math.floor(name.length / 2));
  for (const candidate of candidates) {
    const distance = editDistance(name.slice(0, 64), candidate.slice(0, 64));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

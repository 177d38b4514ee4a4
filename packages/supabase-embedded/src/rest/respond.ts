/** Response shapes shared by reads, writes and RPC: Content-Range, singular objects, headers. */
import { jsonResponse } from '../context';
import { RestError } from './errors';

export const MAX_ROWS = 1000;
export const OBJECT_MEDIA = 'application/vnd.pgrst.object+json';

/** The media type the client asked for (PGRST107 otherwise). */
export function wantsObject(accept: string | null): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  if (types.some((type) => type === OBJECT_MEDIA || type === 'application/vnd.pgrst.object')) return true;
  const acceptable = types.some((type) =>
    ['*/*', 'application/*', 'application/json', 'application/vnd.pgrst.array+json', ''].includes(type),
  );
  if (!acceptable) {
    throw new RestError(406, 'PGRST107', `None of these media types are available: ${accept}`);
  }
  return false;
}

/** `…;nulls=stripped` (postgrest-js `.stripNulls()`): null-valued keys are dropped. */
export function wantsStrippedNulls(accept: string | null): boolean {
  return accept !== null && /;\s*nulls=stripped/i.test(accept);
}

function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== null)
      .map(([key, item]) => [key, stripNulls(item)]),
  );
}

/** Re-serialises a JSON response without null-valued keys. */
export async function stripNullsFrom(response: Response): Promise<Response> {
  const text = await response.text();
  const body = text === '' ? null : JSON.stringify(stripNulls(JSON.parse(text)));
  return new Response(body, { status: response.status, headers: response.headers });
}

export function singularError(rows: number): RestError {
  return new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );
}

/** `[{…}]` from json_agg → `{…}` without re-parsing. */
export function firstOfArray(body: string): string {
  return body.slice(1, -1).trim();
}

function contentRange(offset: number, rows: number, total: number | undefined): string {
  const range = rows > 0 ? `${offset}-${offset + rows - 1}` : '*';
  return `${range}/${total ?? '*'}`;
}

/** PostgREST's rangeStatus: 416 past the end, 206 for a partial page, else 200. */
function rangeStatus(offset: number, rows: number, total: number | undefined): number {
  if (total === undefined) return 200;
  if (offset > total) return 416;
  if (rows < total) return 206;
  return 200;
}

function rangeNotSatisfiable(offset: number, total: number): RestError {
  return new RestError(
    416,
    'PGRST103',
    'Requested range not satisfiable',
    `An offset of ${offset} was requested, but there are only ${total} rows.`,
  );
}

export interface BodyOptions {
  status: number;
  body: string | null;
  headers: Record<string, string>;
  singular: boolean;
}

export function rawJson({ status, body, headers, singular }: BodyOptions): Response {
  const contentType = singular ? `${OBJECT_MEDIA}; charset=utf-8` : 'application/json; charset=utf-8';
  if (body === null) {
    const response = new Response(null, { status, headers });
    return response;
  }
  return new Response(body, { status, headers: { 'content-type': contentType, ...headers } });
}

/** The first row of a counted read or set-returning RPC (see count.ts): rows, JSON array, total. */
export interface CountedPage {
  n: number;
  /** Absent for HEAD, which selects no body. */
  body?: string;
  total?: number;
}

/**
 * A page of rows from `offset` on: 416 past the end, 206 for a partial page, else 200, with its
 * Content-Range; a `singular` request (`Accept: application/vnd.pgrst.object+json`) must find one row.
 */
export function pageResponse(
  row: CountedPage,
  offset: number,
  { singular, head, headers }: { singular: boolean; head: boolean; headers?: Record<string, string> },
): Response {
  const status = rangeStatus(offset, row.n, row.total);
  if (status === 416) throw rangeNotSatisfiable(offset, row.total ?? 0);
  if (singular && row.n !== 1) throw singularError(row.n);
  const body = head || row.body === undefined ? null : singular ? firstOfArray(row.body) : row.body;
  return rawJson({
    status,
    body,
    headers: { 'content-range': contentRange(offset, row.n, row.total), ...headers },
    singular,
  });
}

export { jsonResponse };

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

export function contentRange(offset: number, rows: number, total: number | undefined): string {
  const range = rows > 0 ? `${offset}-${offset + rows - 1}` : '*';
  return `${range}/${total ?? '*'}`;
}

/** PostgREST's rangeStatus: 416 past the end, 206 for a partial page, else 200. */
export function rangeStatus(offset: number, rows: number, total: number | undefined): number {
  if (total === undefined) return 200;
  if (offset > total) return 416;
  if (rows < total) return 206;
  return 200;
}

export function rangeNotSatisfiable(offset: number, total: number): RestError {
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

export { jsonResponse };

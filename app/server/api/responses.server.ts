/**
 * The JSON API's answers (`/api/v1`, ADR 073): one shape for every error,
 * `{ "error": { "code", "message", "fields"? } }` with its HTTP status, and bodies read as JSON or
 * as a form, whichever the caller sent. Never cached, never sniffed.
 */
import type { z } from 'zod';

const HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

export function apiJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...HEADERS, ...headers } });
}

export type ApiErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'license_not_found'
  | 'activation_limit_reached'
  | 'conflict'
  | 'rate_limited'
  | 'method_not_allowed'
  | 'unavailable';

export interface ApiError {
  error: { code: ApiErrorCode; message: string; fields?: Record<string, string[]> };
}

export function apiError(
  status: number,
  code: ApiErrorCode,
  message: string,
  extra: { fields?: Record<string, string[]>; headers?: Record<string, string> } = {},
): Response {
  const body: ApiError = { error: { code, message, ...(extra.fields ? { fields: extra.fields } : {}) } };
  return apiJson(body, status, extra.headers);
}

export const methodNotAllowed = (allow: string) =>
  apiError(405, 'method_not_allowed', `Use ${allow} here.`, { headers: { Allow: allow } });

const MAX_DEPTH = 8;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text Postgres can store: no NUL (U+0000), no lone surrogate (half of an emoji). */
export function isStorableText(text: string): boolean {
  return !text.includes('\0') && !LONE_SURROGATE.test(text);
}

/**
 * Whether a JSON value or a form is one the API takes: nested at most MAX_DEPTH deep (walked
 * without recursion), every key and text storable.
 */
function isAcceptable(body: unknown): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return false;
    } else if (typeof value === 'object' && value !== null && !(value instanceof Blob)) {
      if (depth >= MAX_DEPTH) return false;
      for (const [key, item] of Object.entries(value)) {
        if (!isStorableText(key)) return false;
        pending.push({ value: item, depth: depth + 1 });
      }
    }
  }
  return true;
}

/**
 * The request's body as plain values: JSON (an object) or a form (urlencoded or multipart; a
 * field sent once is a string, a file is a File). Null when it is neither, JSON that does not
 * parse, nests deeper than MAX_DEPTH, or holds text Postgres cannot store.
 */
export async function readApiBody(request: Request): Promise<Record<string, unknown> | null> {
  const body = await readBody(request);
  return body && isAcceptable(body) ? body : null;
}

async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const type = request.headers.get('content-type') ?? '';
  try {
    if (type.includes('application/json')) {
      const body: unknown = await request.json();
      return typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : null;
    }
    if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      const form = await request.formData();
      const body: Record<string, unknown> = {};
      for (const key of new Set(form.keys())) {
        const values = form.getAll(key);
        body[key] = values.length === 1 ? values[0] : values;
      }
      return body;
    }
  } catch {
    return null;
  }
  return null;
}

/** A zod failure as the API's 400: each field's messages, and the first as the message. */
export function invalidRequest(error: z.ZodError): Response {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || 'body';
    (fields[key] ??= []).push(issue.message);
  }
  const first = error.issues[0];
  return apiError(400, 'invalid_request', first ? first.message : 'The request is not valid.', { fields });
}

/**
 * Runs an API handler, answering what the app's shared helpers throw in the API's shape: a 404
 * (`notFound`), a 403, a 503 (`unwrap`), a redirect (as 403: nothing to follow here).
 */
export async function apiAnswer(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) {
      return apiError(403, 'forbidden', 'This needs the dashboard: open it in a browser.');
    }
    if (isThrownData(thrown)) {
      const { init, data } = thrown;
      const status = init?.status ?? 500;
      const message = typeof data === 'object' && data && 'message' in data ? String(data.message) : undefined;
      if (status === 404) return apiError(404, 'not_found', 'Not found: no such agent of yours.');
      if (status === 403) return apiError(403, 'forbidden', message ?? 'You may not do this.');
      if (status === 503) return apiError(503, 'unavailable', message ?? 'The service is temporarily unavailable.');
    }
    throw thrown;
  }
}

function isThrownData(
  value: unknown,
): value is { type: 'DataWithResponseInit'; data: unknown; init: ResponseInit | null } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'DataWithResponseInit';
}

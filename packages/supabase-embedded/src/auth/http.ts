/** Request parsing helpers shared by the auth routes: JSON bodies, form bodies, typed fields. */
import { parseJson } from '../json-body';
import { containsNul, NUL_MESSAGE } from '../text';
import { AuthError, validationFailed } from './errors';

export type Body = Record<string, unknown>;

/** Parses a JSON object body; an empty body is `{}`; anything else → 400 `bad_json`. */
export async function readJson(request: Request): Promise<Body> {
  const text = await request.text();
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON: expected a JSON object');
  }
  if (containsNul(value)) throw validationFailed(NUL_MESSAGE);
  return value as Body;
}

/** A string field; `undefined`/`null` → ''; any other type → 400 `validation_failed`. */
export function stringField(body: Body, key: string): string {
  const value = body[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw validationFailed(`${key} must be a string`);
  return value;
}

/** An object field (e.g. `data`); missing → undefined; not an object → 400. */
export function objectField(body: Body, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw validationFailed(`${key} must be an object`);
  return value as Record<string, unknown>;
}

export function booleanField(body: Body, key: string): boolean | undefined {
  const value = body[key];
  return typeof value === 'boolean' ? value : undefined;
}

export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export function redirect(location: string, status = 302, headers: HeadersInit = {}): Response {
  const result = new Headers(headers);
  result.set('location', location);
  return new Response(null, { status, headers: result });
}

export function htmlResponse(html: string, status = 200): Response {
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy':
        "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
    },
  });
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function jsonBody(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

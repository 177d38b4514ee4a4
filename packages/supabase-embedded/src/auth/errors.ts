/**
 * Auth errors and their wire shapes: the 2024-01-01 body
 * `{code, message}` when the client sent `X-Supabase-Api-Version`, else the legacy
 * `{code: <status>, error_code, msg}`; OAuth-style `{error, error_description}` where GoTrue uses it.
 */
import { jsonResponse } from '../context';

export const API_VERSION = '2024-01-01';

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra top-level keys of the body, e.g. `weak_password`. */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers, e.g. `Retry-After` on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** `{"error": …, "error_description": …}`, status 400 whatever the API version. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const validationFailed = (message: string) => new AuthError(400, 'validation_failed', message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const notFound = (code: string, message: string) => new AuthError(404, code, message);

export function weakPassword(minimumLength: number): AuthError {
  const message = `Password should be at least ${minimumLength} characters.`;
  return new AuthError(422, 'weak_password', message, { weak_password: { reasons: ['length'] } });
}

export function errorResponse(error: unknown, request: Request): Response {
  const versioned = (request.headers.get('x-supabase-api-version') ?? '') >= API_VERSION;
  const headers: Record<string, string> = versioned ? { 'x-supabase-api-version': API_VERSION } : {};
  if (error instanceof OAuthError) {
    return jsonResponse({ error: error.error, error_description: error.description }, error.status, headers);
  }
  const authError =
    error instanceof AuthError
      ? error
      : new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information');
  if (!(error instanceof AuthError)) console.error('[auth] unexpected error', error);
  Object.assign(headers, authError.headers);
  headers['x-sb-error-code'] = authError.code;
  const body = versioned
    ? { code: authError.code, message: authError.message, ...authError.extra }
    : {
        code: authError.status,
        error_code: authError.code,
        msg: authError.message,
        ...authError.extra,
        ...(authError.status >= 500 ? { error_id: crypto.randomUUID() } : {}),
      };
  return jsonResponse(body, authError.status, headers);
}

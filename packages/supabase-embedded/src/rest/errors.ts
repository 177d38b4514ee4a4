/**
 * Data API errors: PostgREST's own codes and the SQLSTATE → HTTP mapping.
 * Every error leaves as `{code, message, details, hint}` with `Proxy-Status`.
 */
import { ClientLimitError, DatabaseBusyError, RequestCancelledError } from '../admission';
import { jsonResponse } from '../context';

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** `failed to parse <what> (<value>)` — PGRST100, the parser's complaint in `details`. */
export function parseError(what: string, value: string, details: string): RestError {
  return new RestError(400, 'PGRST100', `"failed to parse ${what} (${value})" (line 1, column 1)`, details);
}

export function jsonBodyError(details: string | null = null): RestError {
  return new RestError(400, 'PGRST102', 'Empty or invalid json', details);
}

export function columnNotFound(table: string, column: string): RestError {
  return new RestError(400, '42703', `column ${table}.${column} does not exist`);
}

export function payloadColumnNotFound(table: string, column: string): RestError {
  return new RestError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`);
}

interface PgErrorLike {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

function isPgError(error: unknown): error is PgErrorLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string' &&
    'severity' in error
  );
}

/** HTTP status PostgREST answers for a Postgres error. */
export function statusForSqlState(code: string, role: string, message: string): number {
  if (code === '42501') return role === 'anon' ? 401 : 403;
  if (code === '23505' || code === '23503') return 409;
  if (code.startsWith('23')) return 400;
  if (code === '22023') return /^role .* does not exist/.test(message) ? 401 : 400;
  if (code === '42883' || code === '42P01') return 404;
  if (code === '42P17') return 500;
  if (code === 'P0001') return 400;
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2));
  if (code === '25006') return 405;
  if (code === '21000') return /requires a WHERE clause/.test(message) ? 400 : 500;
  if (code === '57P01') return 503;
  if (code === '53400') return 500;
  // Limits a statement built from the request reached (54000 too many array dimensions, 54001
  // too complex): the request's fault, a 400 (PostgREST answers 500).
  if (code.startsWith('54')) return 400;
  if (code.startsWith('08') || code.startsWith('53')) return 503;
  if (code.startsWith('0L') || code.startsWith('0P') || code.startsWith('28')) return 403;
  if (['09', '25', '2D', '38', '39', '3B', '40', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(code.slice(0, 2))) {
    return 500;
  }
  return 400;
}

/** Turns anything thrown while serving a request into the error PostgREST would send. */
export function toRestError(error: unknown, role: string): RestError {
  if (error instanceof RestError) return error;
  const refusal = admissionError(error);
  if (refusal) return refusal;
  if (isPgError(error)) {
    const status = statusForSqlState(error.code, role, error.message);
    const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer' } : {};
    return new RestError(status, error.code, error.message, error.detail ?? null, error.hint ?? null, headers);
  }
  console.warn('[rest] unexpected error', error);
  return new RestError(500, 'PGRST000', 'Internal error in the Data API stand-in');
}

/**
 * A request the database's gate turned away (ADR 032), as PostgREST answers when it gets no
 * connection in time (`PGRST003`, here 503 with `Retry-After`), and 429 for a client over its
 * share (`53300`, PostgreSQL's "too many connections").
 */
function admissionError(error: unknown): RestError | null {
  const retry = (seconds: number) => ({ 'retry-after': String(seconds) });
  if (error instanceof DatabaseBusyError) {
    return new RestError(
      503,
      'PGRST003',
      'Timed out acquiring connection from connection pool.',
      error.message,
      'Try again in a few seconds.',
      retry(error.retryAfterSeconds),
    );
  }
  if (error instanceof ClientLimitError) {
    return new RestError(
      429,
      '53300',
      error.message,
      null,
      'Wait for your earlier requests to finish.',
      retry(error.retryAfterSeconds),
    );
  }
  // Nobody reads this answer: the client is gone.
  if (error instanceof RequestCancelledError) return new RestError(499, 'PGRST003', error.message);
  return null;
}

export function errorResponse(error: RestError): Response {
  return jsonResponse(
    { code: error.code, details: error.details, hint: error.hint, message: error.message },
    error.status,
    {
      'proxy-status': `PostgREST; error=${error.code}`,
      ...error.headers,
    },
  );
}

/**
 * The one home of the HTTP errors that loaders and actions throw. Each throws
 * `data(payload, { status })` with a typed payload (app/lib/route-errors.ts) that the shared
 * error boundary (app/components/error-boundary.tsx) turns into its screen inside the layout:
 *
 * - `notFound()`      404, "Page not found" or a title and message of the route's own;
 * - `accessDenied()`  403, the Access Denied screen with the viewer's role and what was required;
 * - `unavailable()`   503, "Service unavailable" with a Try Again link;
 * - `unwrap()`        a Supabase `{ data, error }` result's data, or the right one of the above.
 *
 * Routes export `ErrorBoundary` (app/routes/route-modules.test.ts checks every one), so the
 * screen keeps the header, footer and any parent layout, and the status is the right one.
 */
import { data } from 'react-router';
import { deniedMessage, type Requirement, type Role } from '~/lib/permissions';
import type { AccessDeniedError, BackendUnavailableError, NotFoundError } from '~/lib/route-errors';
import { isBackendUnavailable } from '~/lib/route-errors';

export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';

/** 404. Without details the screen says "Page not found" with its generic message. */
export function notFound(details: { title?: string; message?: string } = {}): never {
  throw data({ type: 'not-found', ...details } satisfies NotFoundError, { status: 404 });
}

/** 403 for a signed-in viewer whose role does not meet the requirement (guards.server.ts). */
export function accessDenied(role: Role, requirement: Requirement, message = deniedMessage(role, requirement)): never {
  throw data({ type: 'access-denied', role, requirement, message } satisfies AccessDeniedError, { status: 403 });
}

/** 503: a backend call failed. The message is for people; the cause goes to the log. */
export function unavailable(message = UNAVAILABLE_MESSAGE): never {
  throw data({ type: 'backend-unavailable', message } satisfies BackendUnavailableError, { status: 503 });
}

/**
 * Whether `thrown` is what `unavailable()` throws, and its message: for the rare page that shows
 * a failure inside itself instead of the error screen (the marketplace keeps its filters).
 */
export function unavailableMessage(thrown: unknown): string | null {
  if (typeof thrown !== 'object' || thrown === null) return null;
  const { type, data: payload } = thrown as { type?: unknown; data?: unknown };
  return type === 'DataWithResponseInit' && isBackendUnavailable(payload) ? payload.message : null;
}

/** The shape of a Supabase result (`PostgrestSingleResponse`, `{ data, error }` of the clients). */
export type QueryResult<T> = { data: T; error: null } | { data: null; error: { message: string; code?: string } };

export interface UnwrapOptions {
  /** What was read, for the log line: "Backend call failed (profile): …". */
  what: string;
  /** The 503 screen's message, if the generic one is not clear enough for this page. */
  unavailable?: string;
}

/** The data of a successful result (inferred from the success branch only). */
type DataOf<R> = R extends { error: null; data: infer T } ? T : never;

/**
 * The data of a Supabase result. An error is logged and becomes a 503 (`unavailable`); with
 * `notFound`, a missing row (null data) becomes a 404 with those details.
 */
export function unwrap<R extends QueryResult<unknown>>(
  result: R,
  options: UnwrapOptions & { notFound: { title?: string; message?: string } },
): NonNullable<DataOf<R>>;
export function unwrap<R extends QueryResult<unknown>>(result: R, options: UnwrapOptions | string): DataOf<R>;
export function unwrap(
  result: QueryResult<unknown>,
  options: (UnwrapOptions & { notFound?: { title?: string; message?: string } }) | string,
): unknown {
  const { what, unavailable: message, notFound: missing } = typeof options === 'string' ? { what: options } : options;
  if (result.error) {
    console.error(`Backend call failed (${what}):`, result.error.code ?? '', result.error.message);
    unavailable(message);
  }
  if (missing && (result.data === null || result.data === undefined)) notFound(missing);
  return result.data;
}

/** The most rows one Data API request answers (PostgREST's `max_rows`; the embedded backend's too). */
export const ROWS_PER_READ = 1000;

/**
 * Every row of a read, ROWS_PER_READ at a time: one request stops at that many rows, silently.
 * `read` must order the rows completely (a unique key last), so that the batches neither overlap
 * nor skip a row. A failed batch is a 503, like `unwrap`.
 */
export async function readAll<T>(
  read: (from: number, to: number) => PromiseLike<QueryResult<T[]>>,
  options: UnwrapOptions | string,
): Promise<T[]> {
  const rows: T[] = [];
  for (let from = 0; ; from += ROWS_PER_READ) {
    const batch = unwrap(await read(from, from + ROWS_PER_READ - 1), options);
    rows.push(...batch);
    if (batch.length < ROWS_PER_READ) return rows;
  }
}

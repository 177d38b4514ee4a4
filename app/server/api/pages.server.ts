/**
 * Cursor pages of the seller API (ADR 074): newest first by (created_at, id); a cursor is the last
 * row's pair, base64url-encoded, so a page never skips or repeats a row when rows are added.
 */
import type { z } from 'zod';
import type { PageQuery } from '~/schemas/api';
import { apiError } from '~/server/api/responses.server';
import { unwrap, type QueryResult } from '~/server/http-errors.server';

type After = { createdAt: string; id: string } | null;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function encodeCursor(row: { created_at: string; id: string }): string {
  return Buffer.from(`${row.created_at}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined): After | 'invalid' {
  if (!cursor) return null;
  const [createdAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  // Exactly what encodeCursor writes: a timestamp as the Data API gives it, and a uuid.
  const valid =
    rest.length === 0 &&
    createdAt !== undefined &&
    TIMESTAMP.test(createdAt) &&
    !Number.isNaN(Date.parse(createdAt)) &&
    id !== undefined &&
    UUID.test(id);
  return valid ? { createdAt, id } : 'invalid';
}

/** The query, after `after`, in page order, one row more than the page (to know if there is a next). */
export function pageAfter<
  Q extends {
    or(filters: string): Q;
    order(column: string, options: { ascending: boolean }): Q;
    limit(count: number): Q;
  },
>(query: Q, after: After, limit: number): Q {
  const filtered = after
    ? query.or(`created_at.lt."${after.createdAt}",and(created_at.eq."${after.createdAt}",id.lt.${after.id})`)
    : query;
  return filtered
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(limit + 1);
}

/** One page's rows and the next cursor, or the 400 of a cursor this API did not give. */
export async function pageRows<Row extends { created_at: string; id: string }>(
  query: z.infer<typeof PageQuery>,
  read: (after: After) => PromiseLike<QueryResult<Row[]>>,
): Promise<{ data: Row[]; nextCursor: string | null } | Response> {
  const after = decodeCursor(query.cursor);
  if (after === 'invalid') {
    return apiError(400, 'invalid_request', 'This cursor is not one the API gave.', {
      fields: { cursor: ['Pass the next_cursor of the previous page.'] },
    });
  }
  const rows = unwrap(await read(after), 'API page');
  const data = rows.slice(0, query.limit);
  return { data, nextCursor: rows.length > query.limit ? encodeCursor(data.at(-1)!) : null };
}

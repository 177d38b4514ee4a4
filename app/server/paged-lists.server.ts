/**
 * Paged lists of the dashboard: one counted page of a query at a time (the page clamped to the
 * last one), and the usernames the rows name. Used by the admin lists, the seller's agents and
 * sales, reviews and My Collection.
 */
import type { PostgrestError } from '@supabase/supabase-js';
import { pageCount } from '~/lib/pagination';
import { unwrap, type UnwrapOptions } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

/** Rows a page of the dashboard's lists. */
export const DASHBOARD_PAGE_SIZE = 25;

export interface Page<T> {
  rows: T[];
  page: number;
  pageCount: number;
  total: number;
}

type Counted<T> = { data: T[] | null; error: PostgrestError | null; count: number | null };

/**
 * One page of `size` rows of a counted query, `page` clamped to the last page (past it PostgREST
 * answers 416, PGRST103). `what`: `unwrap`'s label or options (the 503's message).
 */
export async function pageOf<T>(
  page: number,
  query: (from: number, to: number) => PromiseLike<Counted<T>>,
  what: UnwrapOptions | string,
  size = DASHBOARD_PAGE_SIZE,
) {
  const from = (page - 1) * size;
  let result = await query(from, from + size - 1);
  let current = page;
  if (result.error?.code === 'PGRST103' && page > 1) {
    const total = (await query(0, 0)).count ?? 0;
    current = pageCount(total, size);
    const start = (current - 1) * size;
    result = await query(start, start + size - 1);
  }
  const rows = unwrap(result as { data: T[]; error: null } | { data: null; error: PostgrestError }, what);
  const total = result.count ?? rows.length;
  return { rows, page: current, pageCount: pageCount(total, size), total };
}

/** Usernames by id (public profiles), for the lists and the audit log. */
export async function usernames(client: AppSupabaseClient, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  const names = new Map<string, string>();
  // 200 ids per request keep the `in.(…)` filter well inside a URL's length.
  for (let start = 0; start < wanted.length; start += 200) {
    const batch = wanted.slice(start, start + 200);
    const rows = unwrap(await client.from('public_profiles').select('id, username').in('id', batch), 'usernames');
    for (const row of rows) if (row.id && row.username) names.set(row.id, row.username);
  }
  return names;
}

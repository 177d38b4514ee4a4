/**
 * A twin of the e2e database for a spec's expected figures: the same migrations and seed, in
 * memory in the test process, queried with SQL written independently of the app's queries.
 * Call `useSeedTwin()` at the top of a spec; its `one` answers a single number.
 *
 * The seed writes its times relative to the moment it runs (an agent "29 days and 23 hours ago"),
 * and the twin is seeded later than the server (in the main suite, its no-JavaScript project
 * opens its twin half an hour after the server started): the same row is that much later in the
 * twin. A figure cut at a UTC midnight or a month's start counts a row near the cut on different
 * days in the two, so such queries move the twin's times to the server's with `seedingGap`.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { openDatabase, type Database } from '../../../packages/supabase-embedded/src/database';

export interface SeedTwin {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  one(sql: string, params?: unknown[]): Promise<number>;
  /**
   * How many seconds later the server seeded its database than the twin, read from the signed-in
   * account of `page` (its creation time in its data export, a seeded time on both). Add it to
   * the twin's times, `created_at + make_interval(secs => $n)`, to get the server's.
   */
  seedingGap(page: Page): Promise<number>;
}

/**
 * One twin per worker process, opened by the first spec that uses it (seeding takes a while) and
 * kept for the specs after it: they only read it.
 */
let shared: Promise<Database> | undefined;

export function useSeedTwin(): SeedTwin {
  let db: Database | undefined;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    shared ??= openDatabase({ dataDir: null, supabaseDir: path.resolve('supabase'), seed: true }).then(
      (opened) => opened.db,
    );
    db = await shared;
  });

  const open = () => {
    if (!db) throw new Error('The seed twin is not open yet (use it inside tests).');
    return db;
  };
  return {
    query: <T>(sql: string, params?: unknown[]) => open().query<T>(sql, params),
    async one(sql, params = []) {
      const { rows } = await open().query<{ value: string | number | null }>(sql, params);
      return Number(rows[0]?.value ?? 0);
    },
    async seedingGap(page) {
      const response = await page.request.get('/profile/export');
      expect(response.status(), 'the data export').toBe(200);
      const { account } = (await response.json()) as { account: { id: string; created_at: string } };
      const { rows } = await open().query<{ value: number | null }>(
        'select extract(epoch from $2::timestamptz - created_at)::float8 as value from public.users where id = $1',
        [account.id, account.created_at],
      );
      const gap = rows[0]?.value;
      if (gap == null) throw new Error(`The account ${account.id} is not in the seed twin.`);
      return gap;
    },
  };
}

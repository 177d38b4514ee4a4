/**
 * A twin of the e2e database for a spec's expected figures: the same migrations and seed, in
 * memory in the test process, queried with SQL written independently of the app's queries.
 * Call `useSeedTwin()` at the top of a spec; its `one` answers a single number.
 */
import path from 'node:path';
import { test } from '../fixtures';
import { openDatabase, type Database } from '../../../supabase/local/database';

export interface SeedTwin {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  one(sql: string, params?: unknown[]): Promise<number>;
}

export function useSeedTwin(): SeedTwin {
  let db: Database | undefined;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    ({ db } = await openDatabase({ dataDir: null, supabaseDir: path.resolve('supabase'), seed: true }));
  });

  test.afterAll(async () => {
    await db?.close();
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
  };
}

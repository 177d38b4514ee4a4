import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, refreshStatistics, type Database } from './database';
import { defaultSnapshotDir, snapshotFile } from './snapshot';

const supabaseDir = path.resolve('supabase');
const temp = mkdtempSync(path.join(os.tmpdir(), 'snapshot-test-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** What a new database holds that the snapshot must reproduce. */
async function contents(db: Database) {
  const migrations = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations order by version',
  );
  const counts = await db.query<{ agents: number; users: number; purchases: number }>(
    `select (select count(*)::int from public.agents) as agents, (select count(*)::int from auth.users) as users,
            (select count(*)::int from public.purchases) as purchases`,
  );
  return { migrations: migrations.rows.map((row) => row.version), ...counts.rows[0] };
}

async function open(snapshotDir: string | null | undefined, dataDir: string | null = null) {
  const lines: string[] = [];
  const { db } = await openDatabase({ dataDir, supabaseDir, snapshotDir, log: (line) => lines.push(line) });
  return { db, lines };
}

describe('snapshots of a new database (ADR 025)', () => {
  const snapshotDir = path.join(temp, 'cache');

  it('saves the first new database and unpacks the next ones from it, with the same schema and data', async () => {
    const first = await open(snapshotDir);
    const made = await contents(first.db);
    expect(first.lines.some((line) => line.startsWith('Unpacked'))).toBe(false);
    const saved = readdirSync(snapshotDir);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(/^pglite-[0-9a-f]{24}\.tar$/);

    const second = await open(snapshotDir, path.join(temp, 'data'));
    expect(second.lines).toContain(`Unpacked the new database's schema from its snapshot ${saved[0]} (ADR 025)`);
    expect(existsSync(path.join(temp, 'data', 'initialised'))).toBe(true);
    // The same rows, with the seed's times relative to this database's start, not the snapshot's.
    expect(await contents(second.db)).toEqual(made);
    const oldest = await Promise.all(
      [first, second].map(
        async ({ db }) => (await db.query<{ at: Date }>('select min(created_at) as at from public.agents')).rows[0]!.at,
      ),
    );
    expect(made.migrations.length).toBeGreaterThan(10);
    expect(made.agents).toBeGreaterThan(0);
    expect(oldest[1]!.getTime()).toBeGreaterThan(oldest[0]!.getTime());
    await first.db.close();
    // The planner's statistics came with it (the snapshot is taken after ANALYZE).
    const stats = await second.db.query<{ reltuples: number }>(
      `select reltuples from pg_class where oid = 'public.agents'::regclass`,
    );
    expect(stats.rows[0]?.reltuples).toBe(made.agents);
    await second.db.close();
  }, 120_000); // databases made from nothing, on disk: tens of seconds on a loaded machine

  it('replaces a damaged snapshot with a good one, and the database is made from nothing meanwhile', async () => {
    const [name] = readdirSync(snapshotDir);
    writeFileSync(path.join(snapshotDir, name!), 'not a tarball');
    const damaged = await open(snapshotDir, path.join(temp, 'data-after-damage'));
    expect(damaged.lines.some((line) => line.includes('does not open'))).toBe(true);
    expect((await contents(damaged.db)).agents).toBeGreaterThan(0);
    await damaged.db.close();
    const again = await open(snapshotDir);
    expect(again.lines).toContain(`Unpacked the new database's schema from its snapshot ${name} (ADR 025)`);
    await again.db.close();
  }, 120_000); // databases made from nothing, on disk: tens of seconds on a loaded machine

  it('names a snapshot after its inputs: a changed migration is another snapshot', () => {
    const copy = path.join(temp, 'supabase-copy');
    cpSync(supabaseDir, copy, { recursive: true });
    const inputs = { supabaseDir: copy, schemaFiles: ['bootstrap.sql'], extensions: ['pgcrypto'] };
    const before = snapshotFile(snapshotDir, inputs);
    expect(snapshotFile(snapshotDir, inputs)).toBe(before);
    const [migration] = readdirSync(path.join(copy, 'migrations')).sort();
    writeFileSync(path.join(copy, 'migrations', migration!), '-- changed\n', { flag: 'a' });
    const changed = snapshotFile(snapshotDir, inputs);
    expect(changed).not.toBe(before);
    expect(snapshotFile(snapshotDir, { ...inputs, extensions: ['pgcrypto', 'pg_trgm'] })).not.toBe(changed);
    // The seed is not in the snapshot: it runs after, at each new database's own now().
    writeFileSync(path.join(copy, 'seed.sql'), '-- changed\n', { flag: 'a' });
    expect(snapshotFile(snapshotDir, inputs)).toBe(changed);
  });

  it('makes every database from nothing when snapshots are off', async () => {
    const off = await open(null);
    expect(off.lines.some((line) => line.startsWith('Unpacked'))).toBe(false);
    await off.db.close();
  }, 120_000); // databases made from nothing, on disk: tens of seconds on a loaded machine
});

describe("a test run's seeded template (EMBEDDED_SEEDED_TEMPLATE)", () => {
  it('gives a new in-memory seeded database the same schema and data as the snapshot and the seed', async () => {
    // vitest.config.ts's global setup made it for this run.
    expect(process.env.EMBEDDED_SEEDED_TEMPLATE).toBeTruthy();
    const copied = await open(undefined);
    expect(copied.lines).toEqual([
      expect.stringMatching(/^Copied the new database, seeded, from this test run's template /),
    ]);
    // The same snapshot folder named: made as in production, unpacked and seeded.
    const made = await open(defaultSnapshotDir(supabaseDir));
    expect(made.lines).toContain('Loading the demo data (supabase/seed.sql)');
    expect(await contents(copied.db)).toEqual(await contents(made.db));
    await Promise.all([copied.db.close(), made.db.close()]);
  }, 120_000);
});

describe('refreshStatistics', () => {
  it('analyzes only the tables that grew since their statistics', async () => {
    const { db } = await open(path.join(temp, 'cache'));
    expect(await refreshStatistics(db)).toEqual([]);
    await db.exec(`insert into public.rate_limit_windows (key, reset_at, count)
      select 'test:' || n, now(), 1 from generate_series(1, 5000) as n`);
    expect(await refreshStatistics(db)).toEqual(['rate_limit_windows']);
    expect(await refreshStatistics(db)).toEqual([]);
    await db.close();
  });
});

/**
 * The Database page's overview (migration 20261214000100, ADR 067): only an admin reads it; it
 * lists every migration the database applied and each table of the app, Auth and Storage with
 * its exact row count and size.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, errorCodeAs, openSeededDatabase, rowsAs, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

interface Overview {
  migrations: { version: string; name: string }[];
  tables: { schema: string; name: string; rows: number; exact: boolean; bytes: number }[];
  databaseBytes: number;
}

describe('admin_database_overview', () => {
  it('refuses everyone but an admin', async () => {
    for (const caller of [anon, user(DEMO.buyer), user(DEMO.seller)]) {
      expect(await errorCodeAs(db, caller, 'select public.admin_database_overview()'), caller.role).toBe('42501');
    }
  });

  it('gives an admin every migration applied and each table with its exact rows and size', async () => {
    const [{ overview }] = (await rowsAs<{ overview: Overview }>(
      db,
      user(DEMO.admin),
      'select public.admin_database_overview() as overview',
    )) as [{ overview: Overview }];
    const files = readdirSync('supabase/migrations')
      .filter((file) => file.endsWith('.sql'))
      .sort()
      .map((file) => file.replace(/\.sql$/, ''));
    expect(overview.migrations.map((m) => `${m.version}_${m.name}`)).toEqual(files);

    const { rows: counts } = await db.query<{ agents: number; users: number; objects: number }>(
      `select (select count(*)::int from public.agents) as agents, (select count(*)::int from auth.users) as users,
              (select count(*)::int from storage.objects) as objects`,
    );
    const table = (schema: string, name: string) => overview.tables.find((t) => t.schema === schema && t.name === name);
    expect(table('public', 'agents')).toMatchObject({ rows: counts[0]!.agents, exact: true });
    expect(table('auth', 'users')).toMatchObject({ rows: counts[0]!.users, exact: true });
    expect(table('storage', 'objects')).toMatchObject({ rows: counts[0]!.objects, exact: true });
    expect(table('public', 'agents')!.bytes).toBeGreaterThan(0);
    expect(overview.tables.every((t) => ['public', 'auth', 'storage'].includes(t.schema))).toBe(true);
    expect(overview.databaseBytes).toBeGreaterThan(table('public', 'agents')!.bytes);
  });
});

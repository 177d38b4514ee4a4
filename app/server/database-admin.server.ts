/**
 * The Database page's reads (ADR 067): the migrations applied and pending, the size and row count
 * of each table (`admin_database_overview`, as the admin: the database checks who asks), a health
 * check timed from this server, and the embedded backend's backup, fetched in process with the
 * service role key after the page's guard. Nothing here changes data; a backup is written to the
 * audit log.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { BACKUP_PATH } from '@agentmarket/supabase-embedded/shared';
import { z } from 'zod';
import type { SupabaseConnection } from '~/context';
import { attachmentDisposition } from '~/lib/content-disposition';
import { writeAudit } from '~/server/admin.server';
import { unwrap } from '~/server/http-errors.server';
import { createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';

const overviewSchema = z.object({
  migrations: z.array(z.object({ version: z.string(), name: z.string().nullable() })).nullable(),
  tables: z.array(
    z.object({ schema: z.string(), name: z.string(), rows: z.number(), exact: z.boolean(), bytes: z.number() }),
  ),
  databaseBytes: z.number(),
  serverVersion: z.string(),
});

export type DatabaseOverview = z.infer<typeof overviewSchema>;
export type TableSize = DatabaseOverview['tables'][number];

export interface MigrationState {
  /** The database's record of what it applied, or null when it keeps none. */
  applied: { version: string; name: string }[] | null;
  /** The project's migration files the database has not applied, oldest first. */
  pending: { version: string; name: string }[];
}

/** The admin's view of the database (insufficient privilege for anyone else, by the function). */
export async function readDatabaseOverview(client: AppSupabaseClient): Promise<DatabaseOverview> {
  return overviewSchema.parse(unwrap(await client.rpc('admin_database_overview'), 'database overview'));
}

const MIGRATION_FILE = /^(\d+)_(.+)\.sql$/;

/** This release's migration files (`supabase/migrations`, beside the server's working directory). */
function migrationFiles(dir = path.resolve('supabase', 'migrations')): { version: string; name: string }[] {
  try {
    return readdirSync(dir)
      .map((file) => MIGRATION_FILE.exec(file))
      .filter((match) => match !== null)
      .map((match) => ({ version: match[1]!, name: match[2]! }))
      .toSorted((a, b) => a.version.localeCompare(b.version));
  } catch {
    return [];
  }
}

/** Applied (newest first) and pending migrations: the files this release ships against the record. */
export function migrationState(overview: DatabaseOverview, files = migrationFiles()): MigrationState {
  if (!overview.migrations) return { applied: null, pending: [] };
  const applied = overview.migrations.map((migration) => ({ version: migration.version, name: migration.name ?? '' }));
  const done = new Set(applied.map((migration) => migration.version));
  return { applied: applied.toReversed(), pending: files.filter((file) => !done.has(file.version)) };
}

export interface HealthCheck {
  database: { ok: boolean; ms: number };
  storage: { ok: boolean; ms: number };
}

async function timed(work: () => Promise<boolean>): Promise<{ ok: boolean; ms: number }> {
  const start = performance.now();
  const ok = await work().catch(() => false);
  return { ok, ms: Math.round((performance.now() - start) * 10) / 10 };
}

/**
 * The database and Storage reached from this server, each timed: one small read of the Data API
 * (a round trip through the API and the database), and Storage's list of buckets.
 */
export async function checkHealth(connection: SupabaseConnection): Promise<HealthCheck> {
  const service = createServiceSupabase(connection);
  const [database, storage] = await Promise.all([
    timed(async () => !(await service.from('platform_settings').select('id').limit(1)).error),
    timed(async () => !(await service.storage.listBuckets()).error),
  ]);
  return { database, storage };
}

/**
 * Where backups come from: the embedded backend on PGlite makes them (a download on the page); a
 * PostgreSQL server and hosted Supabase are backed up with their own tools.
 */
export type BackupKind = 'embedded' | 'postgres' | 'hosted';

function backupRequest(connection: SupabaseConnection, method: 'GET' | 'HEAD') {
  const key = connection.serviceRoleKey ?? '';
  return connection.fetch!(new URL(BACKUP_PATH, connection.url), {
    method,
    headers: { apikey: key, authorization: `Bearer ${key}` },
  });
}

export async function backupKind(connection: SupabaseConnection): Promise<BackupKind> {
  if (!connection.fetch) return 'hosted';
  const answer = await backupRequest(connection, 'HEAD');
  return answer.status === 204 ? 'embedded' : 'postgres';
}

/**
 * A backup of the embedded database as a download, written to the audit log with who took it.
 * Null when this backend makes none.
 */
export async function downloadBackup(connection: SupabaseConnection, adminId: string): Promise<Response | null> {
  if (!connection.fetch) return null;
  const answer = await backupRequest(connection, 'GET');
  if (answer.status === 501) return null;
  if (!answer.ok) throw new Error(`The backup failed: ${answer.status} ${await answer.text()}`);
  const bytes = new Uint8Array(await answer.arrayBuffer());
  const id = crypto.randomUUID();
  const takenAt = new Date().toISOString();
  await writeAudit(createServiceSupabase(connection), {
    actorId: adminId,
    action: 'database.backed_up',
    targetType: 'database',
    targetId: id,
    details: { bytes: bytes.byteLength, taken_at: takenAt },
  });
  const name = `agentmarket-backup-${takenAt.slice(0, 19).replaceAll(':', '-')}Z-${id.slice(0, 8)}.tar.gz`;
  return new Response(bytes, {
    headers: {
      'content-type': 'application/gzip',
      'content-length': String(bytes.byteLength),
      'content-disposition': attachmentDisposition(name),
      'cache-control': 'private, no-store',
    },
  });
}

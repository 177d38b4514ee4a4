/**
 * The embedded Postgres: opens PGlite on a data directory (or in memory), prepares what a
 * Supabase Postgres image provides (bootstrap.sql), then applies `supabase/migrations` in
 * order and, on a brand-new database, `supabase/seed.sql`. Applied migrations are recorded in
 * `supabase_migrations.schema_migrations`, as the Supabase CLI does.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp';

export type Database = PGlite;
export type { Transaction };

export interface OpenDatabaseOptions {
  /** Directory holding the database files, or `null` for a fresh in-memory database. */
  dataDir: string | null;
  /** Folder with `migrations/*.sql` and `seed.sql` (the project's `supabase/`). */
  supabaseDir: string;
  /** Apply `seed.sql` when the database is new (default true). */
  seed?: boolean;
}

/**
 * SQL the stand-in runs before the migrations, in this order, relative to `supabase/local/`.
 * `bootstrap.sql` runs once on a new database; the services' own schemas are idempotent
 * (`create … if not exists`) and run on every start so that a new table reaches old data dirs.
 */
const SERVICE_SCHEMAS = ['auth/schema.sql', 'storage/schema.sql'];

export async function openDatabase(options: OpenDatabaseOptions): Promise<{ db: Database; created: boolean }> {
  const dataPath = options.dataDir ? path.join(options.dataDir, 'pgdata') : null;
  const created = dataPath === null || !existsSync(path.join(dataPath, 'PG_VERSION'));
  if (dataPath) mkdirSync(dataPath, { recursive: true });
  const db = await PGlite.create({
    dataDir: dataPath ?? undefined,
    extensions: { pgcrypto, pg_trgm, uuid_ossp },
  });
  const localDir = path.join(options.supabaseDir, 'local');
  if (created) await db.exec(readFileSync(path.join(localDir, 'bootstrap.sql'), 'utf8'));
  for (const file of SERVICE_SCHEMAS) {
    const schemaFile = path.join(localDir, file);
    if (existsSync(schemaFile)) await db.exec(readFileSync(schemaFile, 'utf8'));
  }
  await applyMigrations(db, path.join(options.supabaseDir, 'migrations'));
  if (created && options.seed !== false) {
    const seedFile = path.join(options.supabaseDir, 'seed.sql');
    if (existsSync(seedFile)) await db.exec(readFileSync(seedFile, 'utf8'));
  }
  return { db, created };
}

/** Applies every `<version>_<name>.sql` not yet recorded, each in its own transaction. */
export async function applyMigrations(db: Database, migrationsDir: string): Promise<string[]> {
  if (!existsSync(migrationsDir)) return [];
  const applied = new Set(
    (await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map(
      (row) => row.version,
    ),
  );
  const files = readdirSync(migrationsDir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .sort();
  const newlyApplied: string[] = [];
  for (const file of files) {
    const [version, ...rest] = file.replace(/\.sql$/, '').split('_');
    if (!version || applied.has(version)) continue;
    const sql = readFileSync(path.join(migrationsDir, file), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query(
        'insert into supabase_migrations.schema_migrations (version, name, statements_hash) values ($1, $2, $3)',
        [version, rest.join('_'), createHash('sha256').update(sql).digest('hex')],
      );
    });
    newlyApplied.push(file);
  }
  return newlyApplied;
}

/** The JWT claims a request runs with; `role` decides the Postgres role. */
export type Claims = Record<string, unknown> & { role: string };

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

/**
 * Runs `work` in one transaction as the claims' role with `request.jwt.claims` set, so that
 * row-level security sees exactly what PostgREST would let it see. `settings` are further
 * transaction-local settings (`request.method`, `transaction_read_only` …) applied in the same
 * statement, saving a round trip per request.
 */
export async function withClaims<T>(
  db: Database,
  claims: Claims,
  work: (tx: Transaction) => Promise<T>,
  settings: Record<string, string> = {},
): Promise<T> {
  const role = API_ROLES.has(claims.role) ? claims.role : 'anon';
  const extra = Object.entries(settings);
  const extraSql = extra.map((_, index) => `, set_config($${4 + index * 2}, $${5 + index * 2}, true)`).join('');
  return db.transaction(async (tx) => {
    await tx.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true),
              set_config('search_path', 'public, extensions', true)${extraSql}`,
      [role, JSON.stringify({ ...claims, role }), typeof claims.sub === 'string' ? claims.sub : '', ...extra.flat()],
    );
    return work(tx);
  });
}

/**
 * The embedded Postgres: opens PGlite on a data directory (or in memory), prepares what a
 * Supabase Postgres image provides (bootstrap.sql), then applies `supabase/migrations` in
 * order and, on a brand-new database when asked, `supabase/seed.sql`. Applied migrations are
 * recorded in `supabase_migrations.schema_migrations`, as the Supabase CLI does.
 *
 * A first start is only complete once `<dataDir>/initialised` exists: it is written last,
 * atomically, after the bootstrap, the migrations and the seed have committed. A data directory
 * without it holds no one's data yet (a first start was killed), so the next start removes the
 * half-made database and initialises again, instead of deciding by `PG_VERSION` and serving a
 * database without schemas or without its seed.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { clientKeyOf, requestScope, RequestGate, type AdmissionLimits } from './admission';
import { openPGliteThread, type PGliteThreadDatabase } from './pglite-thread';
import { ownFile } from './own-files';
import { defaultSnapshotDir, saveSnapshot, snapshotFile } from './snapshot';

export interface QueryResult<T> {
  rows: T[];
  /** Rows an insert, update or delete touched. */
  affectedRows?: number;
  fields: { name: string; dataTypeID: number }[];
}

/** What the services run SQL through: the database itself or one transaction of it. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs one or more statements without parameters (a script). */
  exec(sql: string): Promise<unknown>;
}

/**
 * A transaction's statements. `last` marks the statement after which the transaction commits (a
 * read's only statement): the database commits right after it, without waiting for the caller to
 * say so, and nothing more may run in it. On the embedded thread that saves the round trip through
 * this thread's event loop that the database would otherwise sit idle for (ADR 077). Only for what
 * writes nothing: a statement answered after its deadline is reported as failed, and a write must
 * then be rolled back, not already committed.
 */
export interface Transaction extends Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: { last?: boolean },
  ): Promise<QueryResult<T>>;
}

export interface TransactionOptions {
  /**
   * Each statement may run `deadlineMs` at most (`true`), or this many ms (a role's own deadline,
   * ADR 032): the transactions of API requests. Statements outside them (the start-up, Auth's own
   * fixed queries, maintenance) have no limit (ADR 031).
   */
  deadline?: boolean | number;
}

/**
 * The database the embedded backend runs on: PGlite inside this process (`embedded`), or a
 * PostgreSQL server shared with other processes (`server`, `DATABASE_URL`). Both give the same
 * rows for the same SQL; only the server mode has real concurrency and other processes.
 */
export interface Database extends Queryable {
  readonly kind: 'embedded' | 'server';
  /**
   * How long one statement of a request's transaction (`{ deadline: true }`, as `withClaims`
   * opens them) may run, in ms, or null for no limit (ADR 031). On a server, `statement_timeout`
   * set in the transaction; on PGlite, each statement's deadline in its thread.
   */
  deadlineMs: number | null;
  /**
   * The deadline of the `anon` role's request statements, in ms (ADR 032: 3 s, as hosted
   * Supabase), or null for `deadlineMs`.
   */
  anonDeadlineMs: number | null;
  /** The admission of requests' transactions (ADR 032), set by `openDatabase`; none: all go in. */
  gate?: RequestGate;
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Calls `handler` with each NOTIFY payload on `channel` (from any process on the server mode).
   * `onResume` is called when a lost listening connection is back: what was sent meanwhile is lost.
   */
  listen(channel: string, handler: (payload: string) => void, onResume?: () => void): Promise<() => Promise<void>>;
  /** Runs `work` while no other process holding the same `key` runs (an advisory lock on a server). */
  withSessionLock<T>(key: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Directory holding the database files, or `null` for a fresh in-memory database. */
  dataDir: string | null;
  /**
   * A PostgreSQL server (`postgres://…`) instead of PGlite: the data directory then holds no
   * database, and a first start is one that finds no `supabase_migrations` schema.
   */
  databaseUrl?: string;
  /** Connections per process on the server mode. */
  poolSize?: number;
  /** Folder with `migrations/*.sql` and `seed.sql` (the project's `supabase/`). */
  supabaseDir: string;
  /** Apply `seed.sql` when the database is new (default true). */
  seed?: boolean;
  /** Where to report the steps of a first start (default: nowhere). */
  log?: (message: string) => void;
  /**
   * The cache folder of new-database snapshots (ADR 025; `EMBEDDED_SNAPSHOT_DIR`), or `null` to
   * make every new PGlite database from nothing. Default: `node_modules/.cache/agent-marketplace`.
   */
  snapshotDir?: string | null;
  /**
   * How long one statement may run once the database is ready, in ms (ADR 031; default 8,000, as
   * hosted Supabase gives the `authenticated` role). The start-up (bootstrap, migrations, seed)
   * has no limit.
   */
  statementTimeoutMs?: number;
  /**
   * The same for the `anon` role (ADR 032). Default 3,000 (hosted Supabase's), or
   * `statementTimeoutMs` when that is shorter.
   */
  anonStatementTimeoutMs?: number;
  /** The admission of requests' transactions (ADR 032); unset limits keep their defaults. */
  admission?: Partial<AdmissionLimits>;
}

/**
 * The default deadline of one statement of an `authenticated` or `service_role` request (hosted
 * Supabase's `statement_timeout` for `authenticated`; its `service_role` has none of its own and
 * runs with the API connection's 8 s).
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 8_000;
/** The default deadline of one statement of an `anon` request (hosted Supabase's for `anon`). */
export const DEFAULT_ANON_STATEMENT_TIMEOUT_MS = 3_000;

/** Connections per process on the server mode when `poolSize` is not given. */
export const DEFAULT_POOL_SIZE = 10;

/**
 * SQL the stand-in runs before the migrations, in this order, from this package's `src/` folder.
 * `bootstrap.sql` runs once on a new database; the services' own schemas are idempotent
 * (`create … if not exists`) and run on every start so that a new table reaches old data dirs.
 */
const SERVICE_SCHEMAS = ['auth/schema.sql', 'storage/schema.sql'];

/** Written last by a first start; its presence means the data directory is complete. */
export const INITIALISED_MARKER = 'initialised';

export async function openDatabase(options: OpenDatabaseOptions): Promise<{ db: Database; created: boolean }> {
  const opened = options.databaseUrl
    ? await openServerDatabase(options.databaseUrl, options)
    : await openEmbeddedDatabase(options);
  const { db } = opened;
  db.deadlineMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  db.anonDeadlineMs = options.anonStatementTimeoutMs ?? Math.min(DEFAULT_ANON_STATEMENT_TIMEOUT_MS, db.deadlineMs);
  // PGlite runs one transaction at a time; a server as many as this process has connections.
  db.gate = new RequestGate(db.kind === 'embedded' ? 1 : (options.poolSize ?? DEFAULT_POOL_SIZE), options.admission);
  return opened;
}

async function openEmbeddedDatabase(options: OpenDatabaseOptions): Promise<{ db: Database; created: boolean }> {
  const log = options.log ?? (() => {});
  const template = seededTemplate(options);
  if (template) {
    log(`Copied the new database, seeded, from this test run's template ${template}`);
    return { db: await createPGlite(options, null, undefined, template), created: true };
  }
  const dataPath = options.dataDir ? path.join(options.dataDir, 'pgdata') : null;
  const marker = options.dataDir ? path.join(options.dataDir, INITIALISED_MARKER) : null;
  let created = true;
  let db: Database | null = null;
  if (dataPath && marker) {
    const hasDatabase = existsSync(path.join(dataPath, 'PG_VERSION'));
    if (existsSync(marker) && hasDatabase) {
      created = false;
    } else if (hasDatabase) {
      db = await adoptUnmarkedDatabase(options, dataPath, log);
      created = db === null;
    }
    if (created) {
      rmSync(marker, { force: true });
      rmSync(dataPath, { recursive: true, force: true });
      log(`First start on ${options.dataDir}: initialising the database`);
    }
    mkdirSync(dataPath, { recursive: true });
  }
  if (db) {
    const adopted = db;
    await prepareOrClose(adopted, () => prepareSchema(adopted, { bootstrap: false, seed: false }, options));
    return { db: adopted, created };
  }
  const snapshot = created ? newDatabaseSnapshot(options) : undefined;
  let unpacked = snapshot !== undefined && existsSync(snapshot);
  const opened = await createPGlite(options, dataPath, unpacked ? snapshot : undefined).catch(
    async (error: unknown) => {
      if (!unpacked || !snapshot) throw error;
      unpacked = false;
      // A damaged snapshot: dropped, and this database made from nothing.
      log(`The snapshot ${snapshot} does not open (${String(error)}); making the database from nothing`);
      rmSync(snapshot, { force: true });
      if (dataPath) {
        rmSync(dataPath, { recursive: true, force: true });
        mkdirSync(dataPath, { recursive: true });
      }
      return createPGlite(options, dataPath);
    },
  );
  await prepareOrClose(opened, async () => {
    if (unpacked && snapshot) {
      log(`Unpacked the new database's schema from its snapshot ${path.basename(snapshot)} (ADR 025)`);
    } else {
      await prepareSchema(opened, { bootstrap: created, seed: false }, options);
      if (created && snapshot) await saveSnapshot(() => opened.dump(), snapshot, log);
    }
    if (!created) return;
    // The seed after the snapshot: its times are relative to now(), this start's.
    await loadSeed(opened, options);
    if (marker) {
      writeMarker(marker, { initialisedAt: new Date().toISOString(), seeded: options.seed !== false });
      log('Database initialised');
    }
  });
  return { db: opened, created };
}

/**
 * What every start does, on both kinds of database: on a new one the bootstrap (what a Supabase
 * image provides), on every start the services' own idempotent schemas and the migrations not
 * yet applied, and, when none had been applied before and the options ask for it, the seed.
 */
async function prepareSchema(db: Database, steps: { bootstrap: boolean; seed: boolean }, options: OpenDatabaseOptions) {
  const log = options.log ?? (() => {});
  // In one transaction, so that a database either has the whole bootstrap or none of it.
  if (steps.bootstrap) {
    await db.transaction((tx) => tx.exec(readFileSync(ownFile('bootstrap.sql'), 'utf8')));
  }
  for (const file of SERVICE_SCHEMAS) {
    const schemaFile = ownFile(file);
    if (existsSync(schemaFile)) await db.exec(readFileSync(schemaFile, 'utf8'));
  }
  const applied = await applyMigrations(db, path.join(options.supabaseDir, 'migrations'));
  for (const file of applied) log(`Applied migration ${file}`);
  if (steps.seed) await loadSeed(db, options);
}

/** `seed.sql`, unless the options say no: in one transaction, whole or not at all. */
async function loadSeed(db: Database, options: OpenDatabaseOptions) {
  const seedFile = path.join(options.supabaseDir, 'seed.sql');
  if (options.seed === false || !existsSync(seedFile)) return;
  options.log?.('Loading the demo data (supabase/seed.sql)');
  await db.transaction((tx) => tx.exec(readFileSync(seedFile, 'utf8')));
  await db.exec('analyze');
}

/**
 * The server mode's start: processes starting together on one database take turns (an advisory
 * lock), so that exactly one of them bootstraps, migrates and seeds a new database. A database
 * whose bootstrap is there but no migration yet (made from a template that holds only the
 * bootstrap, as the tests do) counts as new: it is migrated and seeded.
 */
async function openServerDatabase(url: string, options: OpenDatabaseOptions) {
  // Loaded only here: `pg` is not needed on the embedded database, and a start-up pays for every module.
  const { connectServerDatabase } = await import('./server-database');
  const db = connectServerDatabase({ url, poolSize: options.poolSize, log: options.log });
  try {
    const created = await db.withSessionLock('agent-marketplace:schema', async () => {
      const { rows } = await db.query<{ bootstrapped: boolean }>(
        `select to_regclass('supabase_migrations.schema_migrations') is not null as bootstrapped`,
      );
      const bootstrapped = rows[0]?.bootstrapped === true;
      const migrated =
        bootstrapped && (await db.query('select 1 from supabase_migrations.schema_migrations limit 1')).rows.length > 0;
      if (!migrated) options.log?.('First start on this PostgreSQL database: initialising it');
      await prepareSchema(db, { bootstrap: !bootstrapped, seed: !migrated }, options);
      return !migrated;
    });
    return { db, created };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

/**
 * The extensions the schema creates (bootstrap.sql: pgcrypto; the migrations: pg_trgm, unaccent, fuzzystrmatch). Each
 * one loaded costs every start-up: uuid-ossp, which nothing creates, was 0.1 s of it (ADR 025).
 * A migration that needs another adds it here.
 */
const EXTENSIONS = ['fuzzystrmatch', 'pgcrypto', 'pg_trgm', 'unaccent'];

/**
 * V8 runs PGlite's WebAssembly in its baseline compiler first and recompiles the functions that
 * get hot with the optimising one, on background threads. At V8's default budget a start-up
 * already recompiles the functions its first queries touch, and on two cores the main thread sat
 * idle for 0.2–0.4 s of the first page's wait while those jobs ran (ADR 025). Ten times V8's
 * default (1,800,000, "a rough approximation of bytes executed") leaves them to the functions that
 * stay hot under load, where the measured cost per request did not change. Set when this module
 * loads, before PGlite compiles; a flag given on the command line wins.
 */
if (!process.execArgv.some((arg) => arg.startsWith('--wasm-tiering-budget'))) {
  v8.setFlagsFromString('--wasm-tiering-budget=18000000');
}

/**
 * PGlite in its own thread (ADR 031), made from `snapshot` when given. The thread's file is
 * this package's `pglite-worker.js` (own-files.ts).
 */
function createPGlite(
  options: OpenDatabaseOptions,
  dataPath: string | null,
  snapshot?: string,
  copyFrom?: string,
): Promise<PGliteThreadDatabase> {
  return openPGliteThread({
    dataPath,
    snapshotFile: snapshot,
    copyFrom,
    workerFile: ownFile('pglite-worker.js'),
    log: options.log,
  });
}

/** Where the snapshot of a new database with these options is kept, or undefined for none. */
function newDatabaseSnapshot(options: OpenDatabaseOptions): string | undefined {
  const dir = options.snapshotDir === undefined ? defaultSnapshotDir(options.supabaseDir) : options.snapshotDir;
  if (!dir) return undefined;
  return snapshotFile(dir, {
    supabaseDir: options.supabaseDir,
    schemaFiles: ['bootstrap.sql', ...SERVICE_SCHEMAS],
    extensions: EXTENSIONS,
  });
}

/**
 * The test runs' shortcut (`EMBEDDED_SEEDED_TEMPLATE`, set by tests/support/seeded-template-setup.ts
 * for one vitest run): a closed data directory of a new database with its seed loaded, made once
 * per run. A new in-memory seeded database with the default snapshots starts from a copy of it, so
 * that a test file does not pay the unpacking of the snapshot and the seed (about 3 s of CPU per
 * database on two cores). Its seed's times are those of the run's start, minutes old at most.
 * Every other new database (a data directory, no seed, explicit snapshot settings) is made as in
 * production.
 */
function seededTemplate(options: OpenDatabaseOptions): string | undefined {
  const root = process.env.EMBEDDED_SEEDED_TEMPLATE;
  const asProduction = options.dataDir || options.seed === false || options.snapshotDir !== undefined;
  if (!root || asProduction || !existsSync(path.join(root, SEEDED_TEMPLATE_INPUTS))) return undefined;
  // Made from this `supabase/` folder and these schema inputs, or not used.
  const made = readFileSync(path.join(root, SEEDED_TEMPLATE_INPUTS), 'utf8');
  return made === seededTemplateInputs(options) ? path.join(root, 'pgdata') : undefined;
}

/** The file of a seeded template's root that names what it was made from. */
const SEEDED_TEMPLATE_INPUTS = 'made-from.json';

/** What a seeded template made with these options was made from: the folder and its snapshot's name. */
function seededTemplateInputs(options: OpenDatabaseOptions): string {
  return JSON.stringify({ supabaseDir: path.resolve(options.supabaseDir), snapshot: newDatabaseSnapshot(options) });
}

/**
 * Makes a seeded template in `root` (empty) for `EMBEDDED_SEEDED_TEMPLATE`: a new database with
 * these options' schema and seed, closed, in `root/pgdata`.
 */
export async function makeSeededTemplate(root: string, options: Omit<OpenDatabaseOptions, 'dataDir'>) {
  const { db } = await openDatabase({ ...options, dataDir: root });
  await db.close();
  writeFileSync(path.join(root, SEEDED_TEMPLATE_INPUTS), seededTemplateInputs({ ...options, dataDir: null }));
}

/** Runs the preparation of an open database; on failure closes it and rethrows. */
async function prepareOrClose(db: Database, prepare: () => Promise<void>) {
  try {
    await prepare();
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

/**
 * A database without the marker: either left by a first start that was killed (nothing in it
 * belongs to anyone: it is initialised again) or made before the marker existed (it has
 * accounts: it is kept, and marked). Returns the open database to keep, or null to start over.
 * A database that does not even open is moved aside, not deleted.
 */
async function adoptUnmarkedDatabase(
  options: OpenDatabaseOptions,
  dataPath: string,
  log: (message: string) => void,
): Promise<Database | null> {
  let db: Database;
  try {
    db = await createPGlite(options, dataPath);
  } catch (error) {
    const aside = `${dataPath}.unreadable-${Date.now()}`;
    renameSync(dataPath, aside);
    log(`The database of an interrupted first start does not open (${String(error)}); moved it to ${aside}`);
    return null;
  }
  const holdsAccounts = await db
    .query<{ kept: boolean }>(
      `select to_regclass('supabase_migrations.schema_migrations') is not null
          and to_regclass('auth.users') is not null
          and exists (select 1 from auth.users) as kept`,
    )
    .then((result) => result.rows[0]?.kept === true)
    .catch(() => false);
  if (holdsAccounts) {
    writeMarker(path.join(path.dirname(dataPath), INITIALISED_MARKER), {
      initialisedAt: new Date().toISOString(),
      adopted: true,
    });
    return db;
  }
  await db.close().catch(() => {});
  log('An earlier first start did not finish: initialising the database again');
  return null;
}

/** Temp file, fsync, rename, fsync of the directory: the marker is there whole or not at all. */
/** Writes a data directory's marker file whole or not at all (a temporary file, fsync, rename). */
export function writeMarker(file: string, content: Record<string, unknown>) {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, `${JSON.stringify(content)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  try {
    const dir = openSync(path.dirname(file), 'r');
    fsyncSync(dir);
    closeSync(dir);
  } catch {
    // Directories cannot be opened for fsync on every platform; the rename is still atomic.
  }
}

/**
 * ANALYZE for the tables whose size moved since their statistics were taken (more than 8 pages
 * and a tenth), PGlite having no autovacuum to do it. One catalogue query when nothing moved, so
 * a start on an unchanged data directory does not pay for a full ANALYZE. Returns the tables.
 */
export async function refreshStatistics(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select c.oid::regclass::text as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname in ('public', 'auth', 'storage')
        and abs(pg_relation_size(c.oid) / current_setting('block_size')::int - greatest(c.relpages, 0))
            > 8 + greatest(c.relpages, 0) / 10`,
  );
  const tables = rows.map((row) => row.name);
  if (tables.length > 0) await db.exec(`analyze ${tables.join(', ')}`);
  return tables;
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
 * statement, saving a round trip per request. The transaction waits its turn at the database's
 * gate (ADR 032), as the client the gateway saw, and its statements have the role's deadline.
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
  // A request's statements have a deadline (ADR 031), the anonymous role's a shorter one (ADR 032).
  const deadline = role === 'anon' && db.anonDeadlineMs !== null ? db.anonDeadlineMs : true;
  const open = () =>
    db.transaction(
      async (tx) => {
        // Sent without waiting for its answer: the work's statements follow it in the same
        // transaction, and fail (25P02) if it failed, so nothing runs without the claims.
        const setup = tx.query(
          `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true),
              set_config('search_path', 'public, extensions', true)${extraSql}`,
          [
            role,
            JSON.stringify({ ...claims, role }),
            typeof claims.sub === 'string' ? claims.sub : '',
            ...extra.flat(),
          ],
        );
        // The setup's own error comes first when it fails (it is answered before the work's).
        const [, result] = await Promise.all([setup, work(tx)]);
        return result;
      },
      { deadline },
    );
  if (!db.gate) return open();
  const scope = requestScope.getStore();
  return db.gate.run(clientKeyOf({ role, sub: claims.sub }, scope), scope?.signal, open);
}

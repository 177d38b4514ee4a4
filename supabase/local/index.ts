/**
 * The embedded backend: a Supabase-compatible Auth, Data API and Storage over PGlite, running
 * in the app's own process. Its whole public surface is `createEmbeddedBackend`.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { createAuthService, type AuthConfig } from './auth/index';
import type { ServiceContext } from './context';
import { openDatabase, type Database } from './database';
import { createGateway, isBackendPath, MAX_BODY_BYTES } from './gateway';
import { loadKeys, type Keys } from './keys';
import { createRestService } from './rest/index';
import { createStorageService } from './storage/index';

export { isBackendPath, MAX_BODY_BYTES };

const ANALYZE_INTERVAL_MS = 5 * 60 * 1000;
export { readOutbox, type AuthConfig, type OutboxEmail } from './auth/index';

export interface EmbeddedBackendOptions {
  /** Data directory, or `null` for an in-memory database that vanishes with the process. */
  dataDir: string | null;
  /** The project's `supabase/` folder. Default: `./supabase`. */
  supabaseDir?: string;
  /** Public origin of the app (where `/auth/v1` etc. are mounted). Can be set later. */
  siteUrl?: string;
  /** Apply `seed.sql` on a new database (default true). */
  seed?: boolean;
  /** Overrides of the `[auth]` settings of config.toml (e.g. `{ enableConfirmations: true }` in tests). */
  auth?: Partial<AuthConfig>;
}

export interface EmbeddedBackend {
  readonly anonKey: string;
  readonly serviceRoleKey: string;
  readonly keys: Keys;
  readonly db: Database;
  /** The public origin; the Supabase clients use it as their URL. */
  siteUrl(): string;
  setSiteUrl(url: string): void;
  /** Answers a request for `/auth/v1/*`, `/rest/v1/*` or `/storage/v1/*`. */
  handle(request: Request): Promise<Response>;
  /** A `fetch` that reaches the backend in process: pass it to the Supabase clients. */
  fetch: typeof fetch;
  health(): Promise<{ ok: boolean; database: 'up' | 'down' }>;
  close(): Promise<void>;
}

export async function createEmbeddedBackend(options: EmbeddedBackendOptions): Promise<EmbeddedBackend> {
  const supabaseDir = path.resolve(options.supabaseDir ?? 'supabase');
  const dataDir = options.dataDir ? path.resolve(options.dataDir) : null;
  const releaseLock = dataDir ? acquireLock(dataDir) : () => {};
  let siteUrl = (options.siteUrl ?? 'http://localhost:3000').replace(/\/$/, '');
  try {
    const keys = await loadKeys(dataDir);
    const { db } = await openDatabase({ dataDir, supabaseDir, seed: options.seed });
    // PGlite runs no autovacuum, so the planner's statistics are kept fresh here: at start-up and
    // every few minutes (hosted Postgres does this by itself).
    await db.exec('analyze');
    const analyzeTimer = setInterval(() => {
      db.exec('analyze').catch((error: unknown) => console.error('analyze failed:', error));
    }, ANALYZE_INTERVAL_MS);
    analyzeTimer.unref();
    const context: ServiceContext = { db, keys, dataDir, supabaseDir, siteUrl: () => siteUrl };
    const handle = createGateway(keys, {
      auth: createAuthService({ ...context, auth: options.auth }),
      rest: createRestService(context),
      storage: createStorageService(context),
    });
    let closed = false;
    return {
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      keys,
      db,
      siteUrl: () => siteUrl,
      setSiteUrl(url) {
        siteUrl = url.replace(/\/$/, '');
      },
      handle,
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init))) as typeof fetch,
      async health() {
        try {
          await db.query('select 1');
          return { ok: true, database: 'up' };
        } catch {
          return { ok: false, database: 'down' };
        }
      },
      async close() {
        if (closed) return;
        closed = true;
        clearInterval(analyzeTimer);
        await db.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** One process per data directory: a second one refuses to start instead of corrupting it. */
function acquireLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'backend.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockFile, 'utf8'));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(`The data directory ${dataDir} is in use by process ${holder}; stop it first.`);
      }
      rmSync(lockFile, { force: true }); // stale lock of a crashed process
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

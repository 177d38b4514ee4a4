/**
 * The embedded backend: a Supabase-compatible Auth, Data API and Storage over PGlite, running
 * in the app's own process. Its whole public surface is `createEmbeddedBackend`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import type { AdmissionLimits } from './admission';
import { createAuthService, type AuthConfigOverrides, type RateLimitClock } from './auth/index';
import { listenForChanges, type ChangeFeed } from './changes';
import { jsonResponse, type ServiceContext } from './context';
import { openDatabase, refreshStatistics, type Database } from './database';
import { createGateway, isBackendPath, MAX_BODY_BYTES } from './gateway';
import { loadKeys, type Keys } from './keys';
import { LiveSessions } from './live-sessions';
import { acquireLock, StartupError } from './lock';
import { servedOrigin } from './public-origin';
import { createRestService } from './rest/index';
import { createStorageService } from './storage/index';
import { createBlobStore } from './storage/blob-store';
import { makeBackup } from './backup';
import { BACKUP_PATH } from './embedded-api';
import type { PGliteThreadDatabase } from './pglite-thread';

export { isBackendPath, MAX_BODY_BYTES, StartupError };
export { restoreBackup, RestoreError, type BackupManifest } from './backup';

export { BACKUP_PATH };
export type { Change, ChangeTopic, ChangeHandler } from './changes';

const ANALYZE_INTERVAL_MS = 5 * 60 * 1000;
export {
  readOutbox,
  type AuthConfig,
  type AuthConfigOverrides,
  type OutboxEmail,
  type RateLimitClock,
} from './auth/index';
export { GOOGLE_ISSUER_URL } from './auth/config';

export interface EmbeddedBackendOptions {
  /**
   * Data directory, or `null` for an in-memory database that vanishes with the process. With
   * `databaseUrl` it holds only the storage files (`<dataDir>/storage`), and may be shared by
   * every process on the machine; `null` then keeps files in memory (tests).
   */
  dataDir: string | null;
  /**
   * A PostgreSQL 15+ server (`postgres://…`, `DATABASE_URL`) instead of PGlite: the server-backed
   * mode, where several processes share one database (docs/deployment.md).
   */
  databaseUrl?: string;
  /** Connections per process to the server (`DATABASE_POOL_SIZE`, default 10). */
  poolSize?: number;
  /**
   * Where Storage keeps file bytes (`STORAGE_DIR`). Default `<dataDir>/storage`, or memory when
   * `dataDir` is null.
   */
  storageDir?: string | null;
  /** The project's `supabase/` folder. Default: `./supabase`. */
  supabaseDir?: string;
  /**
   * Public origin of the app (where `/auth/v1` etc. are mounted), fixed (`APP_URL`). Without it,
   * the one `setSiteUrl` gave, or the same server under another loopback name a request came in
   * on (see `withOrigin`); never a host a request names.
   */
  siteUrl?: string;
  /** Apply `seed.sql` on a new database (default true). */
  seed?: boolean;
  /**
   * The cache folder of new-database snapshots (ADR 025), or `null` to make every new PGlite
   * database from nothing. Default: `node_modules/.cache/agent-marketplace`.
   */
  snapshotDir?: string | null;
  /**
   * How long one statement of an `authenticated` or `service_role` API request may run, in ms
   * (`EMBEDDED_STATEMENT_TIMEOUT_MS`, default 8,000; ADR 031).
   */
  statementTimeoutMs?: number;
  /**
   * The same for an `anon` request (`EMBEDDED_ANON_STATEMENT_TIMEOUT_MS`, default 3,000 or
   * `statementTimeoutMs` when shorter; ADR 032).
   */
  anonStatementTimeoutMs?: number;
  /**
   * How many requests may wait for the database, how long, and how many one client may have in
   * it (`EMBEDDED_DB_MAX_WAITING`, `EMBEDDED_DB_MAX_WAIT_MS`, `EMBEDDED_DB_REQUESTS_PER_CLIENT`;
   * ADR 032). Unset ones keep their defaults.
   */
  admission?: Partial<AdmissionLimits>;
  /** Overrides of the `[auth]` settings of config.toml (e.g. `{ enableConfirmations: true }` in tests). */
  auth?: AuthConfigOverrides;
  /** The rate limiter's clock (tests pass a fake one rather than sleeping through delays). */
  clock?: RateLimitClock;
  /**
   * Development tools (`ENABLE_DEV_TOOLS=true`, on for `npm run dev` and the tests): the open
   * outbox and the stand-in Google page under `/auth/v1/_local/*`. Default off: those paths 404.
   */
  devTools?: boolean;
  /**
   * The server log: the steps of a first start, and emails when no SMTP server is configured
   * (default: console.log).
   */
  log?: (line: string) => void;
}

export interface EmbeddedBackend {
  readonly anonKey: string;
  readonly serviceRoleKey: string;
  readonly keys: Keys;
  readonly db: Database;
  /**
   * The public origin: the fixed one, else `setSiteUrl`'s under the loopback name the current
   * request came in on. Links (emails, the stand-in Google page) and the token issuer use it.
   */
  siteUrl(): string;
  /**
   * Runs `work` as part of a request that came in on `origin` (the HTTP layer derives it,
   * honouring TRUST_PROXY): in-process calls made meanwhile (the app's Supabase clients) and
   * requests the backend answers directly build their links on it, unless the origin is fixed.
   * Only another loopback name of this server counts (packages/supabase-embedded/src/public-origin.ts).
   */
  withOrigin<T>(origin: string, work: () => T): T;
  setSiteUrl(url: string): void;
  /**
   * Answers a request for `/auth/v1/*`, `/rest/v1/*` or `/storage/v1/*`. `clientAddress` is who
   * sent it, as the HTTP layer knows it (rate limits); requests without one share one count.
   * `target` is the request-target as received (`req.url`), before URL parsing resolved its dot
   * segments: the gateway refuses a path that climbs folders (packages/supabase-embedded/src/gateway.ts).
   */
  handle(request: Request, clientAddress?: string, target?: string): Promise<Response>;
  /** A `fetch` that reaches the backend in process: pass it to the Supabase clients. */
  fetch: typeof fetch;
  /** The in-process `fetch` for requests made on behalf of a visitor at `clientAddress`. */
  fetchFrom(clientAddress: string): typeof fetch;
  /**
   * Calls `handler` with each change of `topic` committed on the database by any process (ADR
   * 021): an Auth session ended, a profile changed, the catalogue changed. Several app processes
   * on one database keep their caches right this way. Returns the unsubscribe function.
   */
  onChange: ChangeFeed['on'];
  /**
   * Whether the database answers; `degraded` says why it is slow (many requests waiting for it,
   * or its thread being started again after a statement passed its deadline; ADR 032).
   */
  health(): Promise<{ ok: boolean; database: 'up' | 'down'; degraded?: string }>;
  close(): Promise<void>;
}

export async function createEmbeddedBackend(options: EmbeddedBackendOptions): Promise<EmbeddedBackend> {
  const supabaseDir = path.resolve(options.supabaseDir ?? 'supabase');
  const dataDir = options.dataDir ? path.resolve(options.dataDir) : null;
  const databaseUrl = options.databaseUrl || undefined;
  // A data directory of PGlite belongs to one process; on a server the database does the sharing.
  const releaseLock = dataDir && !databaseUrl ? acquireLock(dataDir) : () => {};
  const fixedOrigin = options.siteUrl !== undefined;
  let siteUrl = (options.siteUrl ?? 'http://localhost').replace(/\/$/, '');
  const requestOrigin = new AsyncLocalStorage<string>();
  const currentSiteUrl = () => (fixedOrigin ? siteUrl : (requestOrigin.getStore() ?? siteUrl));
  // A request picks at most another loopback name of this server, never a host of its own.
  const withOrigin = <T>(origin: string, work: () => T): T =>
    fixedOrigin ? work() : requestOrigin.run(servedOrigin(origin, siteUrl), work);
  try {
    const { db } = await openDatabase({
      dataDir,
      databaseUrl,
      poolSize: options.poolSize,
      supabaseDir,
      seed: options.seed,
      log: options.log,
      snapshotDir: options.snapshotDir,
      statementTimeoutMs: options.statementTimeoutMs,
      anonStatementTimeoutMs: options.anonStatementTimeoutMs,
      admission: options.admission,
    });
    const keys = await loadKeys(db.kind === 'server' ? { db } : { dataDir });
    // PGlite runs no autovacuum, so the planner's statistics are kept fresh here, for the tables
    // that grew or shrank: at start-up and every few minutes (a PostgreSQL server does this itself).
    let analyzeTimer: NodeJS.Timeout | undefined;
    if (db.kind === 'embedded') {
      await refreshStatistics(db);
      analyzeTimer = setInterval(() => {
        refreshStatistics(db).catch((error: unknown) => console.error('analyze failed:', error));
      }, ANALYZE_INTERVAL_MS);
      analyzeTimer.unref();
    }
    const context: ServiceContext = {
      db,
      keys,
      dataDir,
      storageDir:
        options.storageDir !== undefined
          ? options.storageDir && path.resolve(options.storageDir)
          : dataDir && path.join(dataDir, 'storage'),
      supabaseDir,
      siteUrl: currentSiteUrl,
      sessions: new LiveSessions(db),
    };
    const auth = createAuthService({
      ...context,
      auth: options.auth,
      clock: options.clock,
      devTools: options.devTools,
      log: options.log,
    });
    // Sessions ended by another process (or by this one: the news is then already in) are refused
    // at once here too.
    const changes = await listenForChanges(db, options.log ?? console.log);
    changes.on('session', (change) => context.sessions.end([change.id], auth.tokenLifetimeSeconds));
    const blobs = createBlobStore(context.storageDir);
    const gateway = createGateway(keys, {
      auth,
      rest: createRestService(context),
      storage: createStorageService(context, blobs),
    });
    const backup = async (request: Request): Promise<Response> => {
      const serviceRole = `Bearer ${keys.serviceRoleKey}`;
      if (
        request.headers.get('apikey') !== keys.serviceRoleKey ||
        request.headers.get('authorization') !== serviceRole
      ) {
        return jsonResponse({ message: 'A backup needs the service role key.' }, 401);
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return jsonResponse({ message: 'GET a backup, or HEAD to ask whether there is one to make.' }, 405);
      }
      if (!('whileAlone' in db)) {
        return jsonResponse({ message: 'Back up a PostgreSQL server with its own tools (pg_dump).' }, 501);
      }
      if (request.method === 'HEAD') return new Response(null, { status: 204 });
      return new Response(await makeBackup(db as PGliteThreadDatabase, blobs), {
        headers: { 'content-type': 'application/gzip', 'cache-control': 'no-store' },
      });
    };
    // The app's own server-side calls: not counted per client at the database's gate (ADR 032).
    const inProcess =
      (clientAddress?: string) =>
      (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
        const request = new Request(input, init);
        if (new URL(request.url).pathname === BACKUP_PATH) return backup(request);
        return gateway(request, clientAddress, targetOf(input), true);
      };
    // A request from outside comes in on its own origin; an in-process one (`fetch`, the app's
    // clients) belongs to the app request that runs `withOrigin`, if any.
    const handle: typeof gateway = (request, clientAddress, target) =>
      withOrigin(new URL(request.url).origin, () => gateway(request, clientAddress, target));
    // The URL as the client built it, before `new Request` resolves its dot segments.
    const targetOf = (input: RequestInfo | URL) =>
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    let closed = false;
    return {
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      keys,
      db,
      siteUrl: currentSiteUrl,
      withOrigin,
      setSiteUrl(url) {
        siteUrl = url.replace(/\/$/, '');
      },
      handle,
      fetch: inProcess() as typeof fetch,
      fetchFrom: (clientAddress) => inProcess(clientAddress) as typeof fetch,
      onChange: (topic, handler) => changes.on(topic, handler),
      async health() {
        const restarting =
          'restarting' in db && db.restarting === true
            ? 'the database thread is being started again (a statement passed its deadline)'
            : undefined;
        const degraded = restarting ?? db.gate?.degraded() ?? undefined;
        const up = degraded ? { ok: true, database: 'up' as const, degraded } : { ok: true, database: 'up' as const };
        // A statement running in PGlite's thread ends by its deadline at the latest: the database
        // is up, and /healthz does not wait behind it.
        if ('busy' in db && db.busy === true) return up;
        try {
          await db.query('select 1');
          return up;
        } catch {
          return { ok: false, database: 'down' };
        }
      },
      async close() {
        if (closed) return;
        closed = true;
        clearInterval(analyzeTimer);
        auth.close();
        await changes.close();
        await db.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

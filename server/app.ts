/**
 * The HTTP layer in front of React Router: security headers, the cross-site check, the
 * embedded Supabase backend (when no SUPABASE_URL is set), /healthz, the renewal job's timer, and
 * the request handler.
 * `server.js` mounts the router this module builds; Vite bundles it with the app.
 */
import { sendResponse } from '@remix-run/node-fetch-server';
import express from 'express';
import { createRequestHandler, RouterContextProvider } from 'react-router';
import {
  clientAddressContext,
  connectionContext,
  firstAdminContext,
  nonceContext,
  type SupabaseConnection,
} from '~/context';
import { forgetCatalogue } from '~/server/agents.server';
import { flushViews } from '~/server/analytics.server';
import { env, isDemoMode, isProduction } from '~/server/env.server';
import { createFirstAdminSetup, firstAdminNotice } from '~/server/first-admin.server';
import { productMailNotice } from '~/server/notifications.server';
import { paymentProvider } from '~/server/payments/index.server';
import { publicOrigin, setOwnOrigin } from '~/server/public-origin.server';
import { scheduleRenewals } from '~/server/renewals.server';
import { scheduleWebhooks } from '~/server/webhooks.server';
import { createServiceSupabase } from '~/server/supabase.server';
import { forgetViewer } from '~/server/viewer.server';
import { writeDemoPackages } from '../supabase/demo-packages';
import {
  createEmbeddedBackend,
  GOOGLE_ISSUER_URL,
  isBackendPath,
  StartupError,
  type AuthConfig,
  type EmbeddedBackend,
} from '@agentmarket/supabase-embedded';
import { hs256Signer } from '@agentmarket/supabase-embedded/shared';
import { readBodyWithinLimits, webRequest } from './body-limit';
import { BASELINE_CSP, baselineHeaders, rejectCrossSiteMutations } from './security';

export interface AppInstance {
  router: express.Router;
  /** Tells the app its public origin once the port is known (email links, OAuth redirects). */
  setPublicUrl(url: string): void;
  /** The anon key browsers and curl use for the embedded backend, when it runs. */
  anonKey: string;
  embedded: boolean;
  /** The embedded backend itself (direct SQL for tests and tools); null on hosted Supabase. */
  backend: EmbeddedBackend | null;
  /** Lines for the start-up log: product emails off (no SMTP_URL on hosted Supabase); the first administrator's one-time setup link. */
  startupNotices(): Promise<string[]>;
  /** What server.js needs from the environment, validated in env.server.ts. */
  listen: { port: number; host: string; trustProxy: boolean; demo: boolean };
  close(): Promise<void>;
}

export async function createApp(): Promise<AppInstance> {
  // Given a function, React Router calls it and derives the routes, their ranking and the static
  // handler again on every request (for hot reload); the production build is given once instead,
  // its modules loaded while the database opens (ADR 044: the two overlap on a start-up).
  const loadBuild = () => import('virtual:react-router/server-build');
  const build = isProduction ? loadBuild() : null;
  build?.catch(() => {}); // awaited below; a failure surfaces there, after the backend's own
  const backend = env.SUPABASE_URL ? null : await openEmbeddedBackend();
  // What another process on the same database changed, this one forgets at once (ADR 022). On
  // hosted Supabase there is no such news: the caches' short TTLs are the bound.
  backend?.onChange('session', (change) => forgetViewer(change.user_id));
  backend?.onChange('user', (change) => forgetViewer(change.id));
  backend?.onChange('catalogue', () => forgetCatalogue());
  const connection: SupabaseConnection = backend
    ? {
        url: backend.siteUrl(),
        anonKey: backend.anonKey,
        serviceRoleKey: backend.serviceRoleKey,
        fetch: backend.fetch,
        fetchFrom: backend.fetchFrom,
        signAccessToken: (claims, seconds) => backend.keys.sign(claims, seconds),
      }
    : {
        url: env.SUPABASE_URL!,
        anonKey: env.SUPABASE_ANON_KEY!,
        serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
        signAccessToken: env.SUPABASE_JWT_SECRET ? hs256Signer(env.SUPABASE_JWT_SECRET) : undefined,
      };
  const firstAdmin = createFirstAdminSetup();
  // The renewal job, in this process (only a started server runs it, never a build); several
  // servers share it through a database lease. It writes with the service role key.
  const renewals =
    env.RENEWAL_INTERVAL_MS > 0 && connection.serviceRoleKey
      ? scheduleRenewals({
          service: createServiceSupabase(connection),
          provider: paymentProvider(),
          intervalMs: env.RENEWAL_INTERVAL_MS,
        })
      : null;
  // The webhook deliveries, the same way (ADR 076).
  const webhooks =
    env.WEBHOOK_INTERVAL_MS > 0 && connection.serviceRoleKey
      ? scheduleWebhooks({
          service: createServiceSupabase(connection),
          allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
          intervalMs: env.WEBHOOK_INTERVAL_MS,
        })
      : null;
  let publicUrl = env.APP_URL ?? `http://localhost:${env.PORT}`;

  const router = express.Router();
  router.use(baselineHeaders);

  router.get('/healthz', async (_req, res) => {
    const health = backend ? await backend.health() : null;
    const database = health?.database ?? 'hosted';
    const ok = database !== 'down';
    // Degraded is still up (200): requests are answered, some with 503 at once (ADR 032).
    const body = health?.degraded
      ? { status: 'degraded', database, reason: health.degraded }
      : { status: ok ? 'ok' : 'unavailable', database };
    res
      .status(ok ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(body);
  });

  // Every body, app and backend alike, is read here within its limits (server/body-limit.ts).
  router.use(readBodyWithinLimits({ timeoutMs: env.REQUEST_BODY_TIMEOUT_MS }));

  if (backend) {
    router.use(async (req, res, next) => {
      if (!isBackendPath(req.path)) return next();
      try {
        res.setHeader('Content-Security-Policy', BASELINE_CSP);
        const url = appUrl(req);
        // The backend rate-limits by this address (req.ip honours TRUST_PROXY), never by a header.
        // req.originalUrl: the path as sent, dot segments unresolved (the gateway refuses them).
        await sendResponse(res, await backend.handle(webRequest(req, res, url), clientAddress(req), req.originalUrl));
      } catch (error) {
        next(error);
      }
    });
  }

  router.use(rejectCrossSiteMutations);
  const handleRequest = createRequestHandler(
    build ? await build : loadBuild,
    isProduction ? 'production' : 'development',
  );
  router.all('/{*splat}', async (req, res, next) => {
    try {
      const url = appUrl(req);
      const request = webRequest(req, res, url);
      // The public origin: APP_URL, else this server's own under the loopback name the request
      // came in on; never a host the request names (app/server/public-origin.server.ts).
      const origin = publicOrigin(request);
      const context = new RouterContextProvider();
      // The embedded backend is reached on that origin unless APP_URL fixes one: the browser
      // follows the URLs the Supabase clients build on it (Continue with Google).
      context.set(connectionContext, backend && !env.APP_URL ? { ...connection, url: origin } : connection);
      context.set(nonceContext, String(res.locals.cspNonce ?? ''));
      context.set(clientAddressContext, clientAddress(req));
      context.set(firstAdminContext, firstAdmin);
      // Without APP_URL, links the backend builds meanwhile (emails) use that origin too.
      const response = await (backend
        ? backend.withOrigin(origin, () => handleRequest(request, context))
        : handleRequest(request, context));
      if (res.destroyed || res.writableEnded) {
        await response.body?.cancel();
        return;
      }
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  });

  return {
    router,
    embedded: Boolean(backend),
    backend,
    anonKey: connection.anonKey,
    listen: {
      port: env.PORT,
      host: env.HOST ?? (isDemoMode ? '127.0.0.1' : '0.0.0.0'),
      trustProxy: env.TRUST_PROXY,
      demo: isDemoMode,
    },
    setPublicUrl(url) {
      publicUrl = env.APP_URL ?? url;
      setOwnOrigin(publicUrl);
      backend?.setSiteUrl(publicUrl);
    },
    async startupNotices() {
      const mail = productMailNotice(connection);
      return [...(mail ? [mail] : []), ...(await firstAdminNotice(connection, firstAdmin, publicUrl))];
    },
    async close() {
      await Promise.all([renewals?.stop(), webhooks?.stop()]);
      await flushViews(); // the agent-page views gathered for the next batch (ADR 028)
      await backend?.close();
    },
  };
}

function clientAddress(req: express.Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * The page URL as @react-router/express derives it: `X-Forwarded-Host`'s port and the forwarded
 * protocol only when TRUST_PROXY is on (Express's `req.hostname`/`req.protocol` honour it).
 */
function appUrl(req: express.Request): string {
  const forwardedPort = req.app?.enabled('trust proxy') ? req.get('x-forwarded-host')?.split(':')[1] : undefined;
  const hostPort = req.get('host')?.split(':')[1];
  const port = [forwardedPort, hostPort].map((value) => Number.parseInt(value ?? '', 10)).find(Number.isSafeInteger);
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || 'localhost';
  return new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ''}${req.originalUrl}`).href;
}

async function openEmbeddedBackend(): Promise<EmbeddedBackend> {
  const dataDir = env.EMBEDDED_DATA_DIR === 'memory' ? null : env.EMBEDDED_DATA_DIR;
  const confirmations = env.EMBEDDED_EMAIL_CONFIRMATIONS;
  const rateLimits = {
    signInSignUps: env.EMBEDDED_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS,
    tokenRefresh: env.EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH,
    tokenVerifications: env.EMBEDDED_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS,
    emailSent: env.EMBEDDED_AUTH_RATE_LIMIT_EMAIL_SENT,
    anonymousUsers: env.EMBEDDED_AUTH_RATE_LIMIT_ANONYMOUS_USERS,
    accountFailuresBeforeDelay: env.AUTH_FAILURES_BEFORE_DELAY,
  };
  const backend = await createEmbeddedBackend({
    dataDir,
    databaseUrl: env.DATABASE_URL,
    poolSize: env.DATABASE_POOL_SIZE,
    storageDir: env.STORAGE_DIR,
    siteUrl: env.APP_URL,
    // The demo data, with its published passwords, only in demo mode (`npm start`).
    seed: isDemoMode,
    snapshotDir: env.EMBEDDED_SNAPSHOT_DIR === 'none' ? null : env.EMBEDDED_SNAPSHOT_DIR,
    statementTimeoutMs: env.EMBEDDED_STATEMENT_TIMEOUT_MS,
    anonStatementTimeoutMs: env.EMBEDDED_ANON_STATEMENT_TIMEOUT_MS,
    admission: Object.fromEntries(
      Object.entries({
        maxWaiting: env.EMBEDDED_DB_MAX_WAITING,
        maxWaitMs: env.EMBEDDED_DB_MAX_WAIT_MS,
        perClient: env.EMBEDDED_DB_REQUESTS_PER_CLIENT,
      }).filter(([, value]) => value !== undefined),
    ),
    log: (message) => console.log(message),
    auth: {
      ...(confirmations ? { enableConfirmations: confirmations === 'true' } : {}),
      // Unset variables keep config.toml's values.
      rateLimits: Object.fromEntries(Object.entries(rateLimits).filter(([, value]) => value !== undefined)),
      ...mailAndGoogleFromEnv(),
    },
    devTools: env.ENABLE_DEV_TOOLS,
  });
  if (!isDemoMode && (await holdsDemoPasswords(backend))) {
    await backend.close();
    throw new StartupError(
      `The data directory ${env.EMBEDDED_DATA_DIR} holds the demo accounts with their published password ` +
        '(it was made by `npm start`, the demo). A deployment must not serve them. Start the deployment on a new ' +
        'EMBEDDED_DATA_DIR (or delete this one), or run the demo with DEMO_MODE=true.',
    );
  }
  if (isDemoMode) {
    // The seed's package files (SQL cannot write Storage): written once, then nothing to do.
    const service = createServiceSupabase({
      url: backend.siteUrl(),
      anonKey: backend.anonKey,
      serviceRoleKey: backend.serviceRoleKey,
      fetch: backend.fetch,
    });
    const written = await writeDemoPackages(service);
    console.log(
      written > 0
        ? `Demo packages: wrote ${written} files to Storage (agent-packages).`
        : 'Demo packages: all written.',
    );
  }
  return backend;
}

/**
 * Whether any account still signs in with the demo password of supabase/seed.sql. The seed
 * gives all demo accounts one hash, so this costs one bcrypt per distinct hash.
 */
async function holdsDemoPasswords(backend: EmbeddedBackend): Promise<boolean> {
  const result = await backend.db.query<{ found: boolean }>(
    `with hashes as (
       select distinct encrypted_password as hash from auth.users
       where email like '%@demo.test' and encrypted_password like '$2%'
     )
     select exists (select 1 from hashes where hash = extensions.crypt('demo-password', hash)) as found`,
  );
  return result.rows[0]?.found === true;
}

/** SMTP_* and GOOGLE_* override `[auth.email.smtp]` and `[auth.external.google]` of config.toml. */
function mailAndGoogleFromEnv(): Partial<AuthConfig> {
  const settings: Partial<AuthConfig> = {};
  const from = env.SMTP_FROM ?? env.MAIL_FROM;
  if (env.SMTP_URL && from) settings.smtp = { url: env.SMTP_URL, from };
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    settings.googleClient = {
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      issuer: env.GOOGLE_ISSUER_URL ?? GOOGLE_ISSUER_URL,
    };
  }
  return settings;
}

/**
 * The HTTP layer in front of React Router: security headers, the cross-site check, the
 * embedded Supabase backend (when no SUPABASE_URL is set), /healthz, and the request handler.
 * `server.js` mounts the router this module builds; Vite bundles it with the app.
 */
import { sendResponse } from '@remix-run/node-fetch-server';
import express from 'express';
import { createRequestHandler, RouterContextProvider } from 'react-router';
import { clientAddressContext, connectionContext, nonceContext, type SupabaseConnection } from '~/context';
import { env, isProduction } from '~/server/env.server';
import { createEmbeddedBackend, isBackendPath, type EmbeddedBackend } from '../supabase/local/index';
import { readBodyWithinLimits, webRequest } from './body-limit';
import { BASELINE_CSP, baselineHeaders, rejectCrossSiteMutations } from './security';

export interface AppInstance {
  router: express.Router;
  /** Tells the app its public origin once the port is known (email links, OAuth redirects). */
  setPublicUrl(url: string): void;
  /** The anon key browsers and curl use for the embedded backend, when it runs. */
  anonKey: string;
  embedded: boolean;
  close(): Promise<void>;
}

export async function createApp(): Promise<AppInstance> {
  const backend = env.SUPABASE_URL ? null : await openEmbeddedBackend();
  const connection: SupabaseConnection = backend
    ? { url: backend.siteUrl(), anonKey: backend.anonKey, serviceRoleKey: backend.serviceRoleKey, fetch: backend.fetch }
    : { url: env.SUPABASE_URL!, anonKey: env.SUPABASE_ANON_KEY!, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY };

  const router = express.Router();
  router.use(baselineHeaders);

  router.get('/healthz', async (_req, res) => {
    const database = backend ? (await backend.health()).database : 'hosted';
    const ok = database !== 'down';
    res
      .status(ok ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ok ? 'ok' : 'unavailable', database });
  });

  // Every body, app and backend alike, is read here within its limits (server/body-limit.ts).
  router.use(readBodyWithinLimits({ timeoutMs: env.REQUEST_BODY_TIMEOUT_MS }));

  if (backend) {
    router.use(async (req, res, next) => {
      if (!isBackendPath(req.path)) return next();
      try {
        res.setHeader('Content-Security-Policy', BASELINE_CSP);
        const url = `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`;
        await sendResponse(res, await backend.handle(webRequest(req, res, url)));
      } catch (error) {
        next(error);
      }
    });
  }

  router.use(rejectCrossSiteMutations);
  const handleRequest = createRequestHandler(
    () => import('virtual:react-router/server-build'),
    isProduction ? 'production' : 'development',
  );
  router.all('/{*splat}', async (req, res, next) => {
    try {
      const context = new RouterContextProvider();
      context.set(connectionContext, { ...connection, url: backend ? backend.siteUrl() : connection.url });
      context.set(nonceContext, String(res.locals.cspNonce ?? ''));
      context.set(clientAddressContext, req.ip ?? req.socket.remoteAddress ?? 'unknown');
      const response = await handleRequest(webRequest(req, res, appUrl(req)), context);
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
    anonKey: connection.anonKey,
    setPublicUrl(url) {
      backend?.setSiteUrl(env.APP_URL ?? url);
    },
    async close() {
      await backend?.close();
    },
  };
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
  return createEmbeddedBackend({
    dataDir,
    siteUrl: env.APP_URL,
    auth: confirmations ? { enableConfirmations: confirmations === 'true' } : undefined,
  });
}

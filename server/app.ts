/**
 * The HTTP layer in front of React Router: security headers, the cross-site check, the
 * embedded Supabase backend (when no SUPABASE_URL is set), /healthz, and the request handler.
 * `server.js` mounts the router this module builds; Vite bundles it with the app.
 */
import { createRequest, sendResponse } from '@remix-run/node-fetch-server';
import { createRequestHandler } from '@react-router/express';
import express from 'express';
import { RouterContextProvider } from 'react-router';
import { clientAddressContext, connectionContext, nonceContext, type SupabaseConnection } from '~/context';
import { env, isProduction } from '~/server/env.server';
import {
  createEmbeddedBackend,
  GOOGLE_ISSUER_URL,
  isBackendPath,
  type AuthConfig,
  type EmbeddedBackend,
} from '../supabase/local/index';
import { BASELINE_CSP, baselineHeaders, limitBodySize, rejectCrossSiteMutations } from './security';

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

  if (backend) {
    router.use(async (req, res, next) => {
      if (!isBackendPath(req.path)) return next();
      try {
        res.setHeader('Content-Security-Policy', BASELINE_CSP);
        await sendResponse(res, await backend.handle(createRequest(req, res)));
      } catch (error) {
        next(error);
      }
    });
  }

  router.use(rejectCrossSiteMutations, limitBodySize);
  router.all(
    '/{*splat}',
    createRequestHandler({
      build: () => import('virtual:react-router/server-build'),
      mode: isProduction ? 'production' : 'development',
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(connectionContext, { ...connection, url: backend ? backend.siteUrl() : connection.url });
        context.set(nonceContext, String(res.locals.cspNonce ?? ''));
        context.set(clientAddressContext, req.ip ?? req.socket.remoteAddress ?? 'unknown');
        return context;
      },
    }),
  );

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

async function openEmbeddedBackend(): Promise<EmbeddedBackend> {
  const dataDir = env.EMBEDDED_DATA_DIR === 'memory' ? null : env.EMBEDDED_DATA_DIR;
  const confirmations = env.EMBEDDED_EMAIL_CONFIRMATIONS;
  return createEmbeddedBackend({
    dataDir,
    siteUrl: env.APP_URL,
    auth: {
      ...(confirmations ? { enableConfirmations: confirmations === 'true' } : {}),
      ...mailAndGoogleFromEnv(),
    },
    devTools: env.ENABLE_DEV_TOOLS === 'true',
  });
}

/** SMTP_* and GOOGLE_* override `[auth.email.smtp]` and `[auth.external.google]` of config.toml. */
function mailAndGoogleFromEnv(): Partial<AuthConfig> {
  const settings: Partial<AuthConfig> = {};
  if (env.SMTP_URL && env.SMTP_FROM) settings.smtp = { url: env.SMTP_URL, from: env.SMTP_FROM };
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    settings.googleClient = {
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      issuer: env.GOOGLE_ISSUER_URL ?? GOOGLE_ISSUER_URL,
    };
  }
  return settings;
}

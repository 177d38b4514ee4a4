/**
 * The whole app in this process, for the security sweeps: server/app.ts (security headers, CSP
 * nonce, cross-site check, body limits, the React Router request handler) loaded through Vite as
 * `npm run dev` loads it, on the embedded backend in memory with the demo data, behind an Express
 * app on a free loopback port. Also gives the route manifest (every route of app/routes.ts with
 * its full path and whether it has a loader, an action or a page) so tests enumerate routes
 * instead of listing them by hand.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import express from 'express';
import type { AppInstance } from '../../server/app';
import type { EmbeddedBackend } from '@agentmarket/supabase-embedded';

/** One route of the build, its path joined from its parents' (`/agent/:agentId/review`). */
export interface ManifestRoute {
  id: string;
  path: string;
  file: string;
  page: boolean;
  loader: boolean;
  action: boolean;
  /** Whether another route has this one as parent (layouts are not requested on their own). */
  parent: boolean;
}

export interface AppInProcess {
  origin: string;
  backend: EmbeddedBackend;
  routes: ManifestRoute[];
  /** The start-up log's notices (the first administrator's one-time `/setup?token=…` link). */
  startupNotices(): Promise<string[]>;
  close(): Promise<void>;
}

/** Settings of the e2e server (playwright.config.ts), limits raised for one client doing it all. */
const ENV = {
  EMBEDDED_DATA_DIR: 'memory',
  DEMO_MODE: 'true',
  SESSION_SECRET: 'security-sweep-session-secret',
  ENABLE_DEV_TOOLS: 'false',
  AUTH_RATE_LIMIT_PER_IP: '100000',
  AUTH_RATE_LIMIT_PER_EMAIL: '100000',
  AUTH_FAILURES_BEFORE_DELAY: '100000',
  NEWSLETTER_RATE_LIMIT_PER_IP: '100000',
  EMBEDDED_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
  EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
  EMBEDDED_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '100000',
  EMBEDDED_AUTH_RATE_LIMIT_EMAIL_SENT: '100000',
  // The webhook runner writes its lease every few seconds: tests that need it run it themselves.
  WEBHOOK_INTERVAL_MS: '0',
};

interface BuildRoute {
  id: string;
  path?: string;
  index?: boolean;
  parentId?: string;
  module: Record<string, unknown>;
}

/**
 * `env`: settings of this start over the e2e server's (a data directory instead of memory). They
 * are written to `process.env`: a file that calls this belongs in vitest.config.ts's
 * `changesEnvironment` (a module registry of its own), or later files in its worker read them.
 */
export async function startAppInProcess(env: Record<string, string> = {}): Promise<AppInProcess> {
  Object.assign(process.env, ENV, env);
  const { createServer } = await import('vite');
  const { vite, createApp, build } = await oneAtATime(async () => {
    const vite = await createServer({
      server: { middlewareMode: true, hmr: false, ws: false, watch: null },
      appType: 'custom',
      logLevel: 'error',
    });
    const { createApp } = (await vite.ssrLoadModule('./server/app.ts')) as { createApp(): Promise<AppInstance> };
    const build = (await vite.ssrLoadModule('virtual:react-router/server-build')) as {
      routes: Record<string, BuildRoute>;
    };
    return { vite, createApp, build };
  });
  const app = await createApp();

  const server = express();
  server.disable('x-powered-by'); // as server.js
  server.use(app.router);
  const listener: Server = await new Promise((resolve) => {
    const started = server.listen(0, '127.0.0.1', () => resolve(started));
  });
  const origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  app.setPublicUrl(origin);

  return {
    origin,
    backend: app.backend!,
    routes: manifestRoutes(build.routes),
    startupNotices: () => app.startupNotices(),
    async close() {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await app.close();
      await vite.close();
    },
  };
}

/**
 * Runs `start` while no other test process starts Vite: React Router's Vite plugin rewrites
 * `.react-router/types` (a remove, then writes) as a server starts, and two at once fail on each
 * other's files (ENOTEMPTY). The files that start the app run side by side with the rest of the
 * suite; only their starts take turns, held by a lock directory (a crashed holder's lock is taken
 * over after a minute).
 */
async function oneAtATime<T>(start: () => Promise<T>): Promise<T> {
  const lock = path.join(
    os.tmpdir(),
    `app-in-process-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}.lock`,
  );
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 60_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await start();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function manifestRoutes(routes: Record<string, BuildRoute>): ManifestRoute[] {
  const parents = new Set(Object.values(routes).map((route) => route.parentId));
  const fullPath = (route: BuildRoute): string => {
    const parent = route.parentId ? routes[route.parentId] : undefined;
    const base = parent ? fullPath(parent) : '';
    return route.path ? `${base.replace(/\/$/, '')}/${route.path}` : base || '/';
  };
  return Object.values(routes)
    .filter((route) => route.id !== 'root')
    .map((route) => ({
      id: route.id,
      path: fullPath(route),
      file: route.id,
      page: typeof route.module.default === 'function',
      loader: typeof route.module.loader === 'function',
      action: typeof route.module.action === 'function',
      parent: parents.has(route.id),
    }));
}

/** The Set-Cookie pairs of a response as one Cookie header (later values win). */
export function cookieHeader(response: Response, previous = ''): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.split('=')[0]!, pair] as const),
  );
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0]!;
    const name = pair.split('=')[0]!;
    if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || pair.endsWith('=')) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join('; ');
}

/** A page of the app as a browser asks for it (no redirect followed), with the cookies given. */
export function getPage(origin: string, path: string, cookie: string | null): Promise<Response> {
  return fetch(origin + path, { redirect: 'manual', headers: cookie ? { cookie } : {} });
}

/** A same-origin form POST (no redirect followed), as the app's own forms send it. */
export function postForm(
  origin: string,
  path: string,
  cookie: string | null,
  fields: Record<string, string> | URLSearchParams,
): Promise<Response> {
  return fetch(origin + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: fields instanceof URLSearchParams ? fields : new URLSearchParams(fields),
  });
}

/** Signs in through the app's own sign-in form (a same-origin POST) and returns the cookies. */
export async function signInThroughApp(origin: string, email: string, password = 'demo-password'): Promise<string> {
  const response = await fetch(`${origin}/auth/sign-in`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, redirectTo: '/dashboard' }),
    redirect: 'manual',
  });
  const cookie = cookieHeader(response);
  if (response.status !== 303 || !cookie.includes('auth-token')) {
    throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  }
  return cookie;
}

/** SQL on the app's embedded database, as its owner (no row-level security): set-up and checks. */
export async function sqlOn<Row>(app: AppInProcess, text: string, params: unknown[] = []): Promise<Row[]> {
  return (await app.backend.db.query<Row>(text, params)).rows;
}

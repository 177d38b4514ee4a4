/**
 * The production (and `--dev`) server: compression, static assets with long-lived caching for
 * hashed files, one log line per request, the app router from server/app.ts, and a graceful
 * shutdown on SIGTERM/SIGINT that drains in-flight requests and closes the database.
 * It reads no environment variable itself but WORKERS (server/cluster.js): port, host, demo mode
 * and the proxy setting come from the app, which validates every variable in app/server/env.server.ts.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express from 'express';
import morgan from 'morgan';
import { announces, superviseWorkers } from './server/cluster.js';

const DEVELOPMENT = process.argv.includes('--dev');
// `npm run dev` is a demo too (seeded accounts, local only) unless DEMO_MODE=false says otherwise,
// and opens the development tools (outbox, stand-in Google page); `npm start` never does by itself.
if (DEVELOPMENT) {
  process.env.DEMO_MODE ??= 'true';
  process.env.ENABLE_DEV_TOOLS ??= 'true';
}
// WORKERS=n: this process only supervises n copies of itself (server/cluster.js); the rest of
// this module runs in each of them.
if (!DEVELOPMENT && superviseWorkers()) await new Promise(() => {});

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);
const SHUTDOWN_GRACE_MS = 10_000;

const server = express();
server.disable('x-powered-by');
server.use(compression());
server.use(morgan(DEVELOPMENT ? 'dev' : 'tiny'));

let app;
if (DEVELOPMENT) {
  const vite = await import('vite');
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  server.use(viteDevServer.middlewares);
  // The app module is loaded once; React Router's HMR reloads route modules inside it.
  const { createApp } = await viteDevServer.ssrLoadModule('./server/app.ts').catch(exitOnInvalidEnvironment);
  app = await createApp().catch(exitOnStartupError);
} else {
  server.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y' }));
  // The other public files are fixed at build time: only requests under their top-level names
  // reach the disk, so pages and API calls never pay for a stat of a file that is not there.
  const publicNames = new Set(readdirSync('build/client').filter((name) => name !== 'assets'));
  // The agents' stock artwork (public/thumbnails) changes only with a release: a week, not an hour.
  const publicFiles = express.static('build/client', {
    maxAge: '1h',
    index: false,
    setHeaders: (res, file) => {
      if (path.basename(path.dirname(file)) === 'thumbnails') res.setHeader('Cache-Control', 'public, max-age=604800');
    },
  });
  server.use((req, res, next) => (publicNames.has(req.path.split('/')[1]) ? publicFiles(req, res, next) : next()));
  const { createApp } = await import('./build/server/index.js').catch(exitOnInvalidEnvironment);
  app = await createApp().catch(exitOnStartupError);
}
server.set('trust proxy', app.listen.trustProxy);
server.use(app.router);

/** A bad environment variable: one line per problem and exit code 1, no stack trace. */
function exitOnInvalidEnvironment(error) {
  if (error?.name !== 'InvalidEnvironmentError') throw error;
  console.error(error.message);
  process.exit(1);
}

/**
 * A refusal meant for the operator (data directory in use, demo data in a deployment): the
 * message says it all, a stack trace would only bury it.
 */
function exitOnStartupError(error) {
  if (error?.name !== 'StartupError') throw error;
  console.error(error.message);
  process.exit(1);
}

const { host, demo } = app.listen;
const listener = server.listen(app.listen.port, host, () => {
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : app.listen.port;
  const url = `http://localhost:${port}`;
  app.setPublicUrl(url);
  guardProcess();
  if (!announces) return;
  console.log(`Agent marketplace listening on ${url} (interface ${host})`);
  if (app.embedded) {
    const database = app.backend?.db.kind === 'server' ? 'PostgreSQL server (DATABASE_URL)' : 'PGlite';
    console.log(`Backend: embedded Supabase stand-in (${database}). API URL:`, url);
    console.log(`Anon key: ${app.anonKey}`);
  }
  if (demo) printDemoBanner();
  app.startupNotices().then(
    (lines) => lines.forEach((line) => console.log(line)),
    (error) => console.error('Could not check for an administrator:', error?.message ?? error),
  );
});

function printDemoBanner() {
  const local = LOOPBACK_HOSTS.has(host);
  const rule = '='.repeat(78);
  console.log(rule);
  console.log('DEMO MODE: demo data with PUBLISHED passwords (admin@demo.test / demo-password, see README).');
  console.log(
    local
      ? `Local only: listening on ${host}, other machines cannot connect.`
      : `WARNING: HOST=${host} exposes the demo accounts and their known passwords to the network.`,
  );
  console.log('For a real deployment: npm run build && npm run serve (no demo data; the first');
  console.log('administrator is made through a one-time setup link printed here).');
  console.log(rule);
}

let shuttingDown = false;
async function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`${signal} received: finishing in-flight requests`);
  const forceExit = setTimeout(() => {
    console.error('Shutdown took too long; exiting');
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  forceExit.unref();
  listener.close(async () => {
    await app.close();
    console.log('Closed cleanly');
    process.exit(0);
  });
  listener.closeIdleConnections();
}

// While shutting down, a request that arrives on a kept-alive connection is still answered, with
// `Connection: close`, so its client opens no further request on it and the listener can close
// (a client polling on one connection would otherwise keep it busy until the grace period ends).
listener.prependListener('request', (_req, res) => {
  if (shuttingDown) res.setHeader('Connection', 'close');
});

/**
 * Last line of defence once the server is up (docs/security/body-limits.md): an error that escapes
 * every handler (a stream callback, a forgotten promise) is logged with its stack and the server
 * keeps serving the other requests, instead of dying silently. Start-up errors still end the process.
 */
function guardProcess() {
  process.on('uncaughtException', (error, origin) =>
    console.error(`Unexpected error (${origin}); still serving:`, error),
  );
  process.on('unhandledRejection', (reason) => console.error('Unhandled promise rejection; still serving:', reason));
}

process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));

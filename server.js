/**
 * The production (and `--dev`) server: compression, static assets with long-lived caching for
 * hashed files, one log line per request, the app router from server/app.ts, and a graceful
 * shutdown on SIGTERM/SIGINT that drains in-flight requests and closes the database.
 */
import { readdirSync } from 'node:fs';
import compression from 'compression';
import express from 'express';
import morgan from 'morgan';

const DEVELOPMENT = process.argv.includes('--dev');
const PORT = Number.parseInt(process.env.PORT || '3000', 10);
const HOST = process.env.HOST || '0.0.0.0';
const SHUTDOWN_GRACE_MS = 10_000;

const server = express();
server.disable('x-powered-by');
server.set('trust proxy', process.env.TRUST_PROXY === 'true');
server.use(compression());
server.use(morgan(DEVELOPMENT ? 'dev' : 'tiny'));

let app;
if (DEVELOPMENT) {
  const vite = await import('vite');
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  server.use(viteDevServer.middlewares);
  // The app module is loaded once; React Router's HMR reloads route modules inside it.
  const { createApp } = await viteDevServer.ssrLoadModule('./server/app.ts');
  app = await createApp();
} else {
  server.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y' }));
  // The other public files are fixed at build time: only requests under their top-level names
  // reach the disk, so pages and API calls never pay for a stat of a file that is not there.
  const publicNames = new Set(readdirSync('build/client').filter((name) => name !== 'assets'));
  const publicFiles = express.static('build/client', { maxAge: '1h', index: false });
  server.use((req, res, next) => (publicNames.has(req.path.split('/')[1]) ? publicFiles(req, res, next) : next()));
  const { createApp } = await import('./build/server/index.js');
  app = await createApp();
}
server.use(app.router);

const listener = server.listen(PORT, HOST, () => {
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : PORT;
  const url = `http://localhost:${port}`;
  app.setPublicUrl(url);
  console.log(`Agent marketplace listening on ${url}`);
  guardProcess();
  if (app.embedded) {
    console.log('Backend: embedded Supabase stand-in (PGlite). API URL:', url);
    console.log(`Anon key: ${app.anonKey}`);
  }
});

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

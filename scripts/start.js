/**
 * `npm start`: the one-command local demo. Builds the app when there is no build or the sources
 * are newer than it, then runs the production server in demo mode (demo data with published
 * passwords, bound to 127.0.0.1) unless DEMO_MODE is set. A deployment runs `npm run serve`.
 *
 * The server runs in this process (server.js stops gracefully on SIGTERM and SIGINT and exits with
 * its code), and package.json's `exec` makes npm's shell hand its place over to this process, so a
 * signal sent to `npm start` reaches the server and npm exits with the server's code. Should a
 * wrapper that does not pass signals on die anyway (a shell without `exec`), the server is
 * orphaned: it notices and stops as on SIGTERM instead of running on unseen.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const BUILD_ENTRY = 'build/server/index.js';
const SOURCES = ['app', 'server', 'packages', 'public', 'package.json', 'vite.config.ts', 'react-router.config.ts'];

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

if (!existsSync(BUILD_ENTRY) || newestMtime(BUILD_ENTRY) < Math.max(...SOURCES.map(newestMtime))) {
  // The build's own log (every asset, and @react-router/dev 7's `envFile` deprecation warnings
  // under Vite 8) is for developers: an operator sees it only when
  // the build fails. `npm run build` shows all of it.
  console.log('Building the app…');
  const build = spawnSync('npx', ['react-router', 'build'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (build.status !== 0) {
    process.stdout.write(build.stdout ?? '');
    process.stderr.write(build.stderr ?? '');
    console.error('The build failed (output above).');
    process.exit(build.status ?? 1);
  }
}

process.env.NODE_ENV = 'production';
process.env.DEMO_MODE ??= 'true';
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 500).unref();
await import('../server.js');

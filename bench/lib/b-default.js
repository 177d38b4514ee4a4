/**
 * B-default (ADR 004): the fixture's 24 cards in a default React Router app, served by
 * `react-router-serve`, built and started in the benchmark run itself. The template is
 * bench/b-default/ (the create-react-router root, one route, the template's config, no
 * middleware); it is copied to a temporary directory whose node_modules is a link to this
 * repository's, so it builds with exactly our react-router, React, Vite and Tailwind versions and
 * nothing is downloaded. `~` points at our app/ folder: the same card component, stylesheet and
 * data as F.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../scripts/free-port.js';
import { startProcess } from './processes.js';

/**
 * Builds B-default into `dir` (a new temporary directory) and serves it; resolves once `/` answers
 * 200. With `routes`, the app has that many routes instead of one (the same page on each; ADR 030).
 */
export async function startBDefault(root, dir, { routes = 1 } = {}) {
  cpSync(path.join(root, 'bench/b-default'), dir, { recursive: true });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const env = {
    ...process.env,
    MARKETPLACE_APP_DIR: path.join(root, 'app'),
    NODE_ENV: 'production',
    B_DEFAULT_ROUTES: String(routes),
  };
  try {
    execFileSync(process.execPath, [path.join(root, 'node_modules/@react-router/dev/bin.js'), 'build'], {
      cwd: dir,
      env,
      stdio: 'pipe',
    });
  } catch (error) {
    // The build's own output only when it fails (it warns about `envFile` under Vite 8 every time).
    process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw error;
  }
  const port = await freePort();
  return startProcess({
    cwd: dir,
    args: [path.join(root, 'node_modules/@react-router/serve/bin.js'), './build/server/index.js'],
    env: { NODE_ENV: 'production', HOST: '127.0.0.1' },
    logFile: path.join(dir, 'serve.log'),
    port,
    readyPath: '/',
  });
}

/** How many routes the marketplace's build has (its browser manifest lists every one). */
export function appRouteCount(root) {
  const dir = path.join(root, 'build/client/assets');
  const file = readdirSync(dir).find((name) => name.startsWith('manifest-') && name.endsWith('.js'));
  if (!file) throw new Error('No route manifest in build/client/assets: build the app first.');
  const text = readFileSync(path.join(dir, file), 'utf8');
  const manifest = JSON.parse(text.slice(text.indexOf('=') + 1).replace(/;\s*$/, ''));
  return Object.keys(manifest.routes).length;
}

/** Builds the app when build/ is missing or older than any source it is made from. */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'server', 'packages', 'react-router.config.ts', 'vite.config.ts', 'package.json'];

function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(file)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

export function ensureBuild(root, { force = false, log = console.log } = {}) {
  const output = path.join(root, 'build/server/index.js');
  const builtAt = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))));
  if (!force && builtAt > 0 && builtAt >= sourcesAt) {
    log('Build is up to date.');
    return false;
  }
  log(builtAt === 0 ? 'No build found: building.' : 'Build is stale: building.');
  execSync('npx react-router build', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return true;
}

/**
 * `npm run test:e2e`: builds the app, finds a free port and a Chromium (CHROMIUM_PATH, then
 * /usr/bin/chromium, else Playwright's own, installed on demand), then runs Playwright.
 */
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from './free-port.js';

if (!process.env.CHROMIUM_PATH && !existsSync('/usr/bin/chromium')) {
  console.log('No system Chromium found: installing Playwright’s own.');
  execSync('npx playwright install chromium', { stdio: 'inherit' });
}

execSync('npx react-router build', { stdio: 'inherit' });
// Two servers (playwright.config.ts): the demo data as seeded, and one for the specs that buy.
const port = process.env.E2E_PORT ?? String(await freePort());
let commercePort = process.env.E2E_COMMERCE_PORT ?? String(await freePort());
while (commercePort === port) commercePort = String(await freePort());
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, E2E_PORT: port, E2E_COMMERCE_PORT: commercePort },
});
process.exit(result.status ?? 1);

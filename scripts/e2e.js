/**
 * `npm run test:e2e`: builds the app, finds free ports and a Chromium (scripts/chromium.js, else
 * Playwright's own, installed on demand), then runs Playwright.
 *
 * Without arguments the two suites of playwright.config.ts (the specs on the seeded demo data,
 * and the commerce specs on their own server) run side by side, as two Playwright processes of
 * one worker each; with arguments (files, -g, --project) one process runs what was asked.
 */
import { execSync, spawn, spawnSync } from 'node:child_process';
import { chromiumPath } from './chromium.js';
import { freePort } from './free-port.js';

if (!chromiumPath()) {
  console.log('No system Chromium found: installing Playwright’s own.');
  execSync('npx playwright install chromium', { stdio: 'inherit' });
}

execSync('npx react-router build', { stdio: 'inherit' });
// Two servers (playwright.config.ts): the demo data as seeded, and one for the specs that buy.
const port = process.env.E2E_PORT ?? String(await freePort());
let commercePort = process.env.E2E_COMMERCE_PORT ?? String(await freePort());
while (commercePort === port) commercePort = String(await freePort());
const env = { ...process.env, E2E_PORT: port, E2E_COMMERCE_PORT: commercePort };
const args = process.argv.slice(2);

// Files or filters, or one suite chosen by E2E_SUITE (`npm run test:reliability`): one process.
if (args.length > 0 || process.env.E2E_SUITE) {
  const result = spawnSync('npx', ['playwright', 'test', ...args], { stdio: 'inherit', env });
  process.exit(result.status ?? 1);
}

/** One suite in its own Playwright process; resolves with its exit code. */
function runSuite(suite) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['playwright', 'test'], { stdio: 'inherit', env: { ...env, E2E_SUITE: suite } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all([runSuite('main'), runSuite('commerce')]);
console.log(
  `End-to-end suites: main ${codes[0] === 0 ? 'passed' : 'FAILED'}, commerce ${codes[1] === 0 ? 'passed' : 'FAILED'}`,
);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);

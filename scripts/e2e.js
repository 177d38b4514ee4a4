/**
 * `npm run test:e2e`: builds the app, finds free ports and a Chromium (scripts/chromium.js, else
 * Playwright's own, installed on demand), then runs Playwright.
 *
 * Without arguments the four projects of playwright.config.ts (the specs on the seeded demo data
 * and the commerce specs, each with and without JavaScript) run side by side, each in a
 * Playwright process of one worker with a server of its own; with arguments (files, -g,
 * --project) one process runs what was asked.
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

/**
 * Each project in a Playwright process of its own, with a server of its own (the suites' specs
 * keep their data to one server: the JavaScript and no-JavaScript runs of a spec never meet). One
 * process waits for the server and the browser as much as it works, so four of them keep two
 * cores busy where two left them idle half the time. Output lines are prefixed with the project.
 */
const RUNS = [
  { suite: 'main', project: 'js' },
  { suite: 'main', project: 'nojs' },
  { suite: 'commerce', project: 'commerce-js' },
  { suite: 'commerce', project: 'commerce-nojs' },
];

/** One project in its own Playwright process and server; resolves with its exit code and time. */
async function run({ suite, project }, serverPort) {
  const started = Date.now();
  const child = spawn('npx', ['playwright', 'test', '--project', project], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env,
      E2E_SUITE: suite,
      E2E_RUN: project,
      ...(suite === 'main' ? { E2E_PORT: serverPort } : { E2E_COMMERCE_PORT: serverPort }),
    },
  });
  for (const stream of [child.stdout, child.stderr]) prefixLines(stream, `[${project}] `);
  const code = await new Promise((resolve) => {
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  return { project, code, minutes: (Date.now() - started) / 60_000 };
}

/** Writes a stream's lines to stdout, each with `prefix`. */
function prefixLines(stream, prefix) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
  });
  stream.on('end', () => rest && process.stdout.write(`${prefix}${rest}\n`));
}

// A port each, none the same (a port is free until its server takes it).
const ports = new Set([port, commercePort]);
const runPorts = [];
while (runPorts.length < RUNS.length) {
  const candidate = String(await freePort());
  if (ports.has(candidate)) continue;
  ports.add(candidate);
  runPorts.push(candidate);
}
const results = await Promise.all(RUNS.map((runOf, index) => run(runOf, runPorts[index])));
console.log('End-to-end runs (wall time):');
for (const { project, code, minutes } of results) {
  console.log(`  ${project.padEnd(14)} ${minutes.toFixed(1).padStart(5)} min  ${code === 0 ? 'passed' : 'FAILED'}`);
}
process.exit(results.some(({ code }) => code !== 0) ? 1 : 0);

import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './scripts/chromium.js';

/**
 * End-to-end tests against the production build, on the embedded backend in memory. Every flow
 * runs twice: with JavaScript and without.
 *
 * Servers on free ports (chosen by scripts/e2e.js): the specs in tests/e2e/commerce/ buy, rate,
 * download and refund, so they get a server of their own; every other spec reads the seeded demo
 * data as it was seeded (figures, counts, orders) on the first server. `npm test` runs each
 * project in a process of its own, with its own server of its suite.
 */
const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://127.0.0.1:${port}`;
const commercePort = Number(process.env.E2E_COMMERCE_PORT ?? port + 1);
const commerceURL = `http://127.0.0.1:${commercePort}`;
/**
 * `main` or `commerce`: one of the two suites only (scripts/e2e.js runs each of their projects
 * side by side). `reliability`: the slow runs that kill and restart servers (tests/e2e/reliability/,
 * `npm run test:reliability`), kept out of `npm test`.
 */
const suite = process.env.E2E_SUITE as 'main' | 'commerce' | 'reliability' | undefined;
const reliability = suite === 'reliability';

const executablePath = chromiumPath();

/**
 * Workers per Playwright process (scripts/e2e.js runs one per project, each with its own server).
 * The main suite reads the seeded demo data that some of its specs change, so its files run one
 * at a time. The commerce specs each make their own accounts, so their files can run side by
 * side: one worker per two cores beyond the two the four processes use (one on a 2-core
 * machine, where more would only queue for the CPU). E2E_WORKERS overrides.
 */
const commerceWorkers = Number(process.env.E2E_WORKERS ?? Math.max(1, Math.floor((availableParallelism() - 2) / 2)));

const mainIgnores = ['**/commerce/**', '**/reliability/**'];
/**
 * Tests that run in one of the two runs only (tests/e2e/fixtures.ts: `SERVER_RENDERED`,
 * `JAVASCRIPT_ONLY`) are left out of the other's list, where a skip inside the test would still
 * have cost it a page and the test's hooks.
 */
const SERVER_RENDERED = /@server-rendered/;
const JAVASCRIPT_ONLY = /@javascript-only/;

export default defineConfig({
  testDir: './tests/e2e',
  fullyParallel: false,
  workers: suite === 'commerce' ? commerceWorkers : 1,
  forbidOnly: Boolean(process.env.CI),
  // On CI one retry, so a test that lost a race with a loaded 2-core machine does not sink the
  // run; the list reporter still names it as flaky, and a real failure fails twice.
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  // On CI, where four runs share two cores, a page may take longer than 10 s to show what a test
  // waits for; a real failure still fails, 5 s later.
  expect: { timeout: process.env.CI ? 15_000 : 10_000 },
  reporter: [['list']],
  // The slowest files at the end of every run (the list reporter prints them).
  reportSlowTests: { max: 10, threshold: 60_000 },
  use: {
    baseURL,
    // A trace records every action of a test, which costs time on each: only a retried test's
    // second run records one (CI retries once).
    trace: 'on-first-retry',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // No request leaves loopback: every other host goes through a closed local port and fails
        // (loopback itself never goes through a proxy), and the console error fails the test.
        '--proxy-server=http://127.0.0.1:9',
      ],
    },
  },
  projects: [
    ...(reliability
      ? [
          { name: 'js', testDir: './tests/e2e/reliability', use: { javaScriptEnabled: true } },
          { name: 'nojs', testDir: './tests/e2e/reliability', use: { javaScriptEnabled: false } },
        ]
      : []),
    ...(suite === 'commerce' || reliability
      ? []
      : [
          { name: 'js', testIgnore: mainIgnores, grepInvert: SERVER_RENDERED, use: { javaScriptEnabled: true } },
          { name: 'nojs', testIgnore: mainIgnores, grepInvert: JAVASCRIPT_ONLY, use: { javaScriptEnabled: false } },
        ]),
    ...(suite === 'main' || reliability
      ? []
      : [
          {
            name: 'commerce-js',
            testDir: './tests/e2e/commerce',
            grepInvert: SERVER_RENDERED,
            use: { javaScriptEnabled: true, baseURL: commerceURL },
          },
          {
            name: 'commerce-nojs',
            testDir: './tests/e2e/commerce',
            grepInvert: JAVASCRIPT_ONLY,
            use: { javaScriptEnabled: false, baseURL: commerceURL },
          },
        ]),
  ],
  // A directory per Playwright process (scripts/e2e.js runs one per project): each empties its own.
  outputDir: `test-results/${process.env.E2E_RUN ?? suite ?? 'all'}`,
  webServer: [
    ...(suite === 'commerce' ? [] : [server(port, baseURL)]),
    ...(suite === 'main' || reliability ? [] : [server(commercePort, commerceURL)]),
  ],
});

/** The production server on the embedded backend in memory, seeded, with the test switches. */
function server(serverPort: number, url: string) {
  return {
    command: 'node server.js',
    url: `${url}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      NODE_ENV: 'production',
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      EMBEDDED_DATA_DIR: 'memory',
      DEMO_MODE: 'true', // the seeded demo accounts the specs sign in with
      APP_URL: url,
      SESSION_SECRET: 'e2e-session-secret-not-for-production',
      ENABLE_FAULT_INJECTION: 'true',
      // The e2e tests read emails from the development outbox and use the stand-in Google page.
      ENABLE_DEV_TOOLS: 'true',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      AUTH_RATE_LIMIT_PER_EMAIL: '25',
      // Every spec signs in from 127.0.0.1: the per-account delay and the embedded Auth's
      // per-address limits are raised here (tests/contract/rate-limits.test.ts runs the real ones).
      AUTH_FAILURES_BEFORE_DELAY: '1000',
      EMBEDDED_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
      EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
      EMBEDDED_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '100000',
      EMBEDDED_AUTH_RATE_LIMIT_EMAIL_SENT: '100000',
      NEWSLETTER_RATE_LIMIT_PER_IP: '1000',
    },
  };
}

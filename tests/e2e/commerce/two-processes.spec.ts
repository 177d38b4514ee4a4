/**
 * Two app processes on one PostgreSQL server (the server-backed mode): a throwaway
 * postgresql-15 cluster and two `node server.js` with the same DATABASE_URL, storage folder and
 * session secret, on two ports. The browser's cookies do not depend on the port, so one browser
 * context is one visitor going back and forth between the two processes, as behind a load
 * balancer. Sessions, sign-outs, rate limits and purchases must hold across them: properties of
 * the servers, not of the pages, so the spec runs once, in the JavaScript project (the pages'
 * forms without JavaScript are the commerce specs' other run).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import pg from 'pg';
import { createScratchDatabase, findPostgresBin, startPostgresServer } from '../../../scripts/postgres-server.js';
import { expect, isJavaScriptProject, test } from '../fixtures';
import { DEMO_ACCOUNTS, signInThroughPage, signOut, signUpNewUser, uniqueName } from '../support/accounts';
import { killServers, startServer, type ServerProcess } from '../support/server-process';
import { buyFromAgentPage } from '../support/buying';

test.skip(
  !findPostgresBin() && !process.env.CI,
  'No PostgreSQL 15+ server installed (apt-get install postgresql-15); CI runs this spec.',
);

const buyer = DEMO_ACCOUNTS.buyer;
const agentPath = (n: number) => `/agent/a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

let postgres: { url: string; stop(): void } | undefined;
let databaseUrl = '';
let storageDir = '';
let a: ServerProcess;
let b: ServerProcess;

test.beforeAll(async () => {
  // Skipped here, before its database and servers start.
  test.skip(!isJavaScriptProject(), 'the servers are the same with JavaScript off: one run is enough');
  test.setTimeout(180_000);
  postgres = await startPostgresServer();
  databaseUrl = await createScratchDatabase(postgres.url);
  storageDir = mkdtempSync(path.join(os.tmpdir(), 'two-processes-storage-'));
  const env = {
    DATABASE_URL: databaseUrl,
    STORAGE_DIR: storageDir,
    SESSION_SECRET: 'two-processes-session-secret-not-for-production',
    // The rate-limit test sends its own X-Forwarded-For, so that the sign-ins of the other tests
    // (all from 127.0.0.1) do not count towards its limit.
    TRUST_PROXY: 'true',
    EMBEDDED_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
    EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
  };
  // One after the other: the first start migrates and seeds; the second finds it done.
  a = await startServer('memory', env);
  b = await startServer('memory', env);
});

test.afterAll(async () => {
  killServers();
  postgres?.stop();
  if (storageDir) rmSync(storageDir, { recursive: true, force: true });
});

/** A visitor whose relative URLs go to process A; process B is reached by its full URL. */
async function visitor(browser: Browser, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>) {
  const context = await browser.newContext({
    baseURL: a.origin,
    javaScriptEnabled: isJavaScriptProject(),
    storageState,
  });
  return { context, page: await context.newPage() };
}

const accountMenu = (page: Page, username: string) =>
  page.getByRole('banner').getByLabel(`Account menu for ${username}`);

async function sql<T extends pg.QueryResultRow>(query: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(query, params)).rows;
  } finally {
    await client.end();
  }
}

test('a session started on one process is used on the other, and a sign-out on one ends it on both', async ({
  browser,
}) => {
  const { context, page } = await visitor(browser);
  await signInThroughPage(page, buyer);
  await page.goto(`${b.origin}/dashboard/collection`);
  await expect(page.getByRole('heading', { level: 1, name: 'My Collection' })).toBeVisible();
  await expect(accountMenu(page, buyer.username)).toBeVisible();

  // The cookies as they were before signing out: another tab, a copied cookie, a stolen one.
  const before = await context.storageState();
  await page.goto('/dashboard');
  await signOut(page, buyer.username);
  await context.close();

  const replay = await visitor(browser, before);
  await replay.page.goto(`${b.origin}/dashboard/collection`);
  await expect(replay.page).toHaveURL(/[?&]auth=sign-in&redirectTo=%2Fdashboard%2Fcollection/);
  // Nobody is signed in on that page (its HTML, hidden parts included, names no account menu).
  expect(await replay.page.content()).not.toContain(`Account menu for ${buyer.username}`);
  await replay.context.close();
});

test('wrong sign-ins spread over both processes share one limit: the 11th is refused', async ({ browser }) => {
  const { context, page } = await visitor(browser);
  const address = '203.0.113.11';
  const statuses: number[] = [];
  for (let attempt = 1; attempt <= 11; attempt += 1) {
    const origin = attempt % 2 === 1 ? a.origin : b.origin;
    const response = await page.request.post(`${origin}/auth/sign-in`, {
      form: { email: `nobody${attempt}@example.com`, password: 'wrong-password', redirectTo: '/dashboard' },
      headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin', 'X-Forwarded-For': address },
      maxRedirects: 0,
    });
    statuses.push(response.status());
    if (attempt === 11) {
      expect(response.headers()['retry-after']).toMatch(/^\d+$/);
      expect(await response.text()).toContain('Too many');
    }
  }
  expect(statuses.slice(0, 10).every((status) => status !== 429)).toBe(true);
  expect(statuses[10]).toBe(429);
  await context.close();
});

test('a purchase through one process is in the collection on the other at once', async ({ browser }) => {
  const { context, page } = await visitor(browser);
  await signUpNewUser(page, uniqueName('twoproc', test.info().project.name));
  await page.goto(agentPath(3));
  const name = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
  await buyFromAgentPage(page);
  await expect(page.getByText('In your collection', { exact: true })).toBeVisible();

  await page.goto(`${b.origin}/dashboard/collection`);
  await expect(
    page
      .getByRole('main')
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name }) }),
  ).toHaveCount(1);
  await context.close();
});

test('twenty simultaneous buys spread over both processes make one purchase', async ({ browser }) => {
  const { context, page } = await visitor(browser);
  const path = agentPath(20);
  const checkout = `${path}/checkout`;
  const username = await signUpNewUser(page, uniqueName('race2p', test.info().project.name));
  // The price the order summary shows this new (Basic) buyer: its form carries it.
  const html = await (await page.request.get(`${a.origin}${checkout}`)).text();
  const price = /name="price" value="([^"]+)"/.exec(html)![1]!;
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, index) => {
      const origin = index % 2 === 0 ? a.origin : b.origin;
      return page.request.post(`${origin}${checkout}`, {
        form: { intent: 'buy', idempotencyKey: crypto.randomUUID(), price },
        headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate' },
        maxRedirects: 0,
      });
    }),
  );
  // One buys (303 to the agent page); the others are told it is already bought or under way.
  const statuses = answers.map((answer) => answer.status());
  expect(statuses.filter((status) => ![303, 409].includes(status))).toEqual([]);
  expect(statuses.filter((status) => status === 303).length).toBeGreaterThanOrEqual(1);
  const rows = await sql<{ n: number }>(
    `select count(*)::int as n from public.purchases p join public.users u on u.id = p.buyer_id
      where u.username = $1 and p.agent_id = $2 and p.status = 'completed'`,
    [username, path.split('/').pop()],
  );
  expect(rows[0]?.n).toBe(1);
  await context.close();
});

test('WORKERS=2 starts two app processes on one port, and SIGTERM stops them all', async ({ request }) => {
  const cluster = await startServer('memory', {
    DATABASE_URL: databaseUrl,
    STORAGE_DIR: storageDir,
    SESSION_SECRET: 'two-processes-session-secret-not-for-production',
    WORKERS: '2',
  });
  expect(cluster.output()).toContain('Starting 2 app processes (WORKERS=2)');
  const answers = await Promise.all(Array.from({ length: 20 }, () => request.get(`${cluster.origin}/marketplace`)));
  expect(answers.map((answer) => answer.status())).toEqual(Array(20).fill(200));
  cluster.child.kill('SIGTERM');
  expect(await cluster.exited).toBe(0);
  expect(cluster.output().match(/Closed cleanly/g)).toHaveLength(2);
});

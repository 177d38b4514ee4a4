/**
 * What the first start of a server serves.
 * - A deployment (DEMO_MODE off) on a new data directory creates no known credential: the demo
 *   accounts do not sign in, no demo agents exist, and the log carries a one-time /setup link
 *   that makes the first administrator once (with and without JavaScript), then is refused.
 * - Demo mode (what `npm start` runs) listens on 127.0.0.1 unless told otherwise, and says so.
 * - A first start killed at any step (SIGKILL) is completed by the next start: the demo agents
 *   are on the marketplace and the demo accounts sign in.
 * Runs its own servers (not the shared webServer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, expectAccessible, test } from '../fixtures';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../support/accounts';
import {
  killServers,
  passwordSignIn,
  serviceRoleKey,
  spawnServer,
  startServer,
  type ServerProcess,
} from '../support/server-process';

const DEPLOYMENT = { DEMO_MODE: 'false' };
const SEEDED_PUBLISHED_AGENTS = 72; // supabase/seed.sql
const dirs: string[] = [];

function newDataDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

test.afterAll(() => {
  killServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Signs in through the app's own sign-in form (no JavaScript): where it redirects. */
async function formSignIn(server: ServerProcess, email: string, password: string): Promise<string | null> {
  const response = await fetch(`${server.origin}/auth/sign-in`, {
    method: 'POST',
    body: new URLSearchParams({ email, password, redirectTo: '/dashboard' }),
    redirect: 'manual',
  });
  await response.body?.cancel();
  return response.status === 303 ? response.headers.get('location') : `status ${response.status}`;
}

async function publishedAgents(server: ServerProcess): Promise<number> {
  const response = await fetch(`${server.origin}/rest/v1/agents?select=id&status=eq.published&limit=1`, {
    headers: { apikey: server.anonKey, prefer: 'count=exact' },
  });
  expect([200, 206]).toContain(response.status); // 206: a part of the rows, with the count
  return Number(response.headers.get('content-range')?.split('/')[1]);
}

async function marketplaceCards(server: ServerProcess): Promise<number> {
  const response = await fetch(`${server.origin}/marketplace`);
  expect(response.status).toBe(200);
  return ((await response.text()).match(/<article\b/g) ?? []).length;
}

async function stop(server: ServerProcess) {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

function setupLink(output: string): string | undefined {
  return /(http:\/\/\S+\/setup\?token=\S+)/.exec(output)?.[1];
}

test('a deployment on a new data directory has no known credential; its one-time setup link makes the first admin', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const dataDir = newDataDir('first-admin-');
  const server = await startServer(dataDir, DEPLOYMENT);
  await expect.poll(() => setupLink(server.output())).toBeTruthy();
  const link = setupLink(server.output())!;
  expect(link.startsWith(`${server.origin}/setup?token=`)).toBe(true);
  expect(server.output()).not.toContain('DEMO MODE');

  // No demo accounts, no demo agents.
  expect(await passwordSignIn(server, DEMO_ACCOUNTS.admin.email, DEMO_PASSWORD)).toBe(400);
  expect(await formSignIn(server, DEMO_ACCOUNTS.admin.email, DEMO_PASSWORD)).toBe('status 400');
  expect(await publishedAgents(server)).toBe(0);
  expect(await marketplaceCards(server)).toBe(0);

  // Without the token, or with a wrong one, there is no such page.
  const token = new URL(link).searchParams.get('token')!;
  for (const url of ['/setup', '/setup?token=', `/setup?token=${token.slice(0, -1)}x`, `/setup?token=${token}x`]) {
    const response = await page.goto(`${server.origin}${url}`);
    expect(response?.status(), url).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  }
  const forged = await fetch(`${server.origin}/setup`, {
    method: 'POST',
    body: new URLSearchParams({
      token: 'not-the-token',
      email: 'mallory@example.com',
      username: 'mallory',
      password: 'mallory-password',
      confirmPassword: 'mallory-password',
    }),
  });
  expect(forged.status).toBe(404);

  // The link: a form; a mistake keeps the link usable; then the account is made and signed in.
  const username = `root_${test.info().project.name}`;
  const email = `${username}@example.com`;
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Create the administrator account' })).toBeVisible();
  await expectAccessible(page);
  const form = page.locator('form[method="post"]').filter({ has: page.getByLabel('Confirm password') });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password', { exact: true }).fill('first-admin-password');
  await form.getByLabel('Confirm password').fill('something-else');
  await form.getByRole('button', { name: 'Create administrator account' }).click();
  await expect(page.getByRole('alert')).toContainText('Passwords do not match');
  await expect(form.getByLabel('Email')).toHaveValue(email);
  await form.getByLabel('Password', { exact: true }).fill('first-admin-password');
  await form.getByLabel('Confirm password').fill('first-admin-password');
  await form.getByRole('button', { name: 'Create administrator account' }).click();
  await expect(page).toHaveURL(`${server.origin}/dashboard`);
  await expect(page.getByRole('banner').getByLabel(`Account menu for ${username}`)).toBeVisible();

  // The account is an administrator (read with the service role).
  const key = await serviceRoleKey(dataDir);
  const profile = await fetch(`${server.origin}/rest/v1/users?select=user_type&email=eq.${email}`, {
    headers: { apikey: key, authorization: `Bearer ${key}` },
  });
  expect(await profile.json()).toEqual([{ user_type: 'admin' }]);

  // The link is spent: the page is gone and a replayed form post makes nothing.
  expect((await page.goto(link))?.status()).toBe(404);
  const replay = await fetch(`${server.origin}/setup`, {
    method: 'POST',
    body: new URLSearchParams({
      token,
      email: 'second@example.com',
      username: 'second_admin',
      password: 'second-password',
      confirmPassword: 'second-password',
    }),
  });
  expect(replay.status).toBe(404);
  expect(await passwordSignIn(server, 'second@example.com', 'second-password')).toBe(400);

  // Once an administrator exists, a restart prints no link.
  await page.goto('about:blank'); // nothing of the page may call the server while it is down
  await stop(server);
  const restarted = await startServer(dataDir, DEPLOYMENT);
  expect(await passwordSignIn(restarted, email, 'first-admin-password')).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 2_000)); // the check runs after listening
  expect(restarted.output()).not.toContain('/setup?token=');
  await stop(restarted);
});

test('demo mode listens on 127.0.0.1 unless told otherwise and says it serves published passwords', async () => {
  test.skip(test.info().project.name !== 'js', 'runs its own server once, in the js project');
  test.setTimeout(120_000);
  const server = await startServer('memory', { DEMO_MODE: 'true', HOST: '' });
  expect(server.output()).toContain('(interface 127.0.0.1)');
  expect(server.output()).toContain('DEMO MODE: demo data with PUBLISHED passwords');
  expect(server.output()).toContain('Local only: listening on 127.0.0.1');
  expect(await passwordSignIn(server, DEMO_ACCOUNTS.admin.email, DEMO_PASSWORD)).toBe(200);

  // Another address of this machine does not reach it.
  const port = Number(new URL(server.origin).port);
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
  test.skip(!external, 'this machine has no non-loopback IPv4 address to try');
  const outcome = await new Promise<string>((resolve) => {
    const socket = net.connect({ host: external!, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
  expect(outcome).toBe('ECONNREFUSED');
  await stop(server);
});

/**
 * Moments of a first start (in demo mode) at which it is killed: after a log line, plus a delay.
 * Most make the database from nothing (no snapshots); the last two use a snapshot folder of this
 * run (ADR 025): the first of them saves the snapshot, the second starts from it.
 */
const KILL_POINTS = [
  { after: 'initialising the database', delayMs: 0, redone: true }, // PGlite creating its files
  { after: 'initialising the database', delayMs: 1_500, redone: true },
  { after: 'Applied migration 20261122000100', delayMs: 0, redone: true }, // between migrations
  { after: 'Loading the demo data', delayMs: 0, redone: true }, // inside the seed
  { after: 'Loading the demo data', delayMs: 700, redone: null }, // the seed may have committed
  { after: 'Database initialised', delayMs: 0, redone: false }, // the marker is written, not yet listening
  { after: 'Loading the demo data', delayMs: 0, redone: true, snapshots: true }, // the snapshot just saved
  { after: 'Unpacked', delayMs: 0, redone: true, snapshots: true }, // a database from the snapshot
];

test('a first start killed at any step is completed by the next start; a deployment refuses the demo data', async () => {
  test.skip(test.info().project.name !== 'js', 'runs its own servers once, in the js project');
  test.setTimeout(900_000);
  let lastDir = '';
  const snapshotDir = newDataDir('first-start-snapshots-');
  for (const point of KILL_POINTS) {
    const label = `killed ${point.delayMs} ms after "${point.after}"${point.snapshots ? ' (snapshots)' : ''}`;
    const dataDir = newDataDir('first-start-');
    lastDir = dataDir;
    const env = { DEMO_MODE: 'true', EMBEDDED_SNAPSHOT_DIR: point.snapshots ? snapshotDir : 'none' };
    const first = await spawnServer(dataDir, env);
    await expect
      .poll(() => first.output().includes(point.after) || first.child.exitCode !== null, {
        timeout: 120_000,
        intervals: [10],
      })
      .toBe(true);
    if (point.delayMs) await new Promise((resolve) => setTimeout(resolve, point.delayMs));
    first.child.kill('SIGKILL');
    await first.exited;
    // On a fast machine a late kill point can come after the server was ready: then the start was
    // complete, and the next one must simply keep the directory.
    const wasReady = first.output().includes('Anon key:');
    const redone = wasReady ? false : point.redone;

    const second = await startServer(dataDir, env);
    if (redone !== null) expect(second.output().includes('initialising the database'), label).toBe(redone);
    expect(await publishedAgents(second), label).toBe(SEEDED_PUBLISHED_AGENTS);
    expect(await marketplaceCards(second), label).toBe(24);
    expect(await formSignIn(second, DEMO_ACCOUNTS.admin.email, DEMO_PASSWORD), label).toBe('/dashboard');
    expect(await formSignIn(second, DEMO_ACCOUNTS.buyer.email, DEMO_PASSWORD), label).toBe('/dashboard');
    await stop(second);
  }

  // The same (demo) data directory started as a deployment: refused, with the reason, no stack trace.
  const deployment = await spawnServer(lastDir, DEPLOYMENT);
  expect(await deployment.exited).toBe(1);
  expect(deployment.output()).toContain('holds the demo accounts with their published password');
  expect(deployment.output()).not.toMatch(/^\s+at /m);
});

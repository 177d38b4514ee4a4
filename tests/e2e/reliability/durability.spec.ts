/**
 * Durability: start the production server on a data directory, write through the HTTP APIs,
 * SIGKILL it right after the last acknowledged write, restart it on the same directory and find
 * every acknowledged write. Also: a second server on a directory in use refuses to start.
 * Runs its own servers (not the shared webServer), in the `js` project only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { killServers, serviceRoleKey, spawnServer, startServer } from '../support/server-process';

const WRITES = 30;
const PASSWORD = 'durable-password-1';

let dataDir = '';

const apiHeaders = (key: string) => ({
  apikey: key,
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
});

test.afterAll(async () => {
  killServers();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('every acknowledged write survives SIGKILL; a second server on the same data directory refuses to start', async () => {
  test.skip(test.info().project.name !== 'js', 'runs its own servers once, in the js project');
  test.setTimeout(300_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'durability-'));

  const first = await startServer(dataDir);

  // A second process on the same directory must refuse (the backend's lock file), not corrupt it.
  const second = await spawnServer(dataDir);
  const secondCode = await Promise.race([
    second.exited,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 60_000)),
  ]);
  expect(secondCode, second.output()).not.toBe('still running');
  expect(secondCode).not.toBe(0);
  expect(second.output()).toContain(`is in use by process ${first.child.pid}`);
  expect((await fetch(`${first.origin}/healthz`)).status).toBe(200);

  // Acknowledged writes: sign-ups through Auth, newsletter rows through the Data API (with the
  // service role: anonymous clients may not write that table).
  const writeKey = await serviceRoleKey(dataDir);
  const users: string[] = [];
  const subscribers: string[] = [];
  for (let i = 0; i < WRITES; i++) {
    const email = `durable-${i}@demo.test`;
    const signup = await fetch(`${first.origin}/auth/v1/signup`, {
      method: 'POST',
      headers: apiHeaders(first.anonKey),
      body: JSON.stringify({ email, password: PASSWORD, data: { username: `durable_${i}` } }),
    });
    if (signup.ok) users.push(email);
    else throw new Error(`sign-up ${i}: ${signup.status} ${await signup.text()}`);

    const subscriber = `durable-news-${i}@demo.test`;
    const insert = await fetch(`${first.origin}/rest/v1/newsletter_subscribers`, {
      method: 'POST',
      headers: { ...apiHeaders(writeKey), prefer: 'return=minimal' },
      body: JSON.stringify({ email: subscriber }),
    });
    if (insert.status === 201) subscribers.push(subscriber);
    else throw new Error(`newsletter ${i}: ${insert.status} ${await insert.text()}`);
  }
  first.child.kill('SIGKILL'); // right after the last acknowledgement: no graceful close
  await first.exited;
  expect(users).toHaveLength(WRITES);
  expect(subscribers).toHaveLength(WRITES);

  // Same directory, new process: the stale lock is taken over and every write is there.
  const restarted = await startServer(dataDir);
  const lostUsers: string[] = [];
  for (const email of users) {
    const response = await fetch(`${restarted.origin}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: apiHeaders(restarted.anonKey),
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (response.status !== 200 || !body.access_token) lostUsers.push(email);
  }
  expect(lostUsers, 'acknowledged sign-ups that cannot sign in after the restart').toEqual([]);

  const key = await serviceRoleKey(dataDir);
  const rows = await fetch(`${restarted.origin}/rest/v1/newsletter_subscribers?select=email`, {
    headers: { ...apiHeaders(key), prefer: 'count=exact' },
  });
  expect(rows.status).toBe(200);
  const emails = new Set(((await rows.json()) as { email: string }[]).map((row) => row.email));
  const total = Number(rows.headers.get('content-range')?.split('/')[1]);
  expect(total).toBe(emails.size);
  expect(
    subscribers.filter((email) => !emails.has(email)),
    'acknowledged newsletter rows missing after the restart',
  ).toEqual([]);
  expect(total).toBeGreaterThanOrEqual(WRITES);

  restarted.child.kill('SIGTERM');
  expect(await restarted.exited).toBe(0);
});

/**
 * Durability: the production server on one data directory is killed with SIGKILL at a
 * random moment while writes are in flight, five times over, and started again each time. Every
 * restart must succeed, and every write the server acknowledged before the kill must be there
 * afterwards. Writes still in flight at the kill may land or not: nobody was told they had.
 * Also: a second server on a directory in use refuses to start.
 * Runs its own servers (not the shared webServer), in the `js` project only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { recordTally } from '../../support/security-tally';
import {
  killServers,
  passwordSignIn,
  serviceRoleKey,
  spawnServer,
  startServer,
  type ServerProcess,
} from '../support/server-process';

const CYCLES = 5;
const PASSWORD = 'durable-password-1';
/** Each cycle's kill comes this long after its writes began: uniform in [min, max) ms. */
const KILL_AFTER_MS = { min: 300, max: 2_500 };
/**
 * All writes and sign-ins come from one address, well over Auth's default of 30 sign-ins and
 * sign-ups per address in five minutes. Those counts are stored in the database too
 * (auth.local_rate_limits), so they would survive each restart like any other write.
 */
const SERVER_ENV = { EMBEDDED_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000' };

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

interface Acknowledged {
  /** Usernames of the sign-ups Auth answered 200 (their emails are `<username>@demo.test`). */
  usernames: string[];
  /** Newsletter addresses the Data API answered 201. */
  subscribers: string[];
}

/**
 * Writes until `stop` is set: one loop of sign-ups through Auth, two of inserts through the Data
 * API. Records a write only once its answer has arrived; a request cut off by the kill fails and
 * is not recorded.
 */
function writeUntilStopped(server: ServerProcess, writeKey: string, cycle: number, into: Acknowledged) {
  let stopped = false;
  let next = 0;
  const signUps = async () => {
    while (!stopped) {
      const username = `durable_${cycle}_${next++}`;
      const response = await fetch(`${server.origin}/auth/v1/signup`, {
        method: 'POST',
        headers: apiHeaders(server.anonKey),
        body: JSON.stringify({ email: `${username}@demo.test`, password: PASSWORD, data: { username } }),
      }).catch(() => null);
      if (response?.status === 200) into.usernames.push(username);
      else if (response && !stopped)
        throw new Error(`sign-up ${username}: ${response.status} ${await response.text()}`);
    }
  };
  const inserts = async (lane: number) => {
    for (let i = 0; !stopped; i++) {
      const email = `durable-news-${cycle}-${lane}-${i}@demo.test`;
      const response = await fetch(`${server.origin}/rest/v1/newsletter_subscribers`, {
        method: 'POST',
        headers: { ...apiHeaders(writeKey), prefer: 'return=minimal' },
        body: JSON.stringify({ email }),
      }).catch(() => null);
      if (response?.status === 201) into.subscribers.push(email);
      else if (response && !stopped)
        throw new Error(`newsletter ${email}: ${response.status} ${await response.text()}`);
    }
  };
  const done = Promise.all([signUps(), inserts(0), inserts(1)]);
  return {
    done,
    stop: () => {
      stopped = true;
    },
  };
}

/**
 * Every value of `column` in the rows `query` selects, read page by page: the Data API answers at
 * most 1,000 rows per request (as PostgREST's max-rows), and a fast machine acknowledges more.
 */
async function readAll(server: ServerProcess, key: string, query: string, column: string): Promise<Set<string>> {
  const values = new Set<string>();
  for (let offset = 0; ; offset += 1000) {
    const response = await fetch(`${server.origin}/rest/v1/${query}&order=${column}&limit=1000&offset=${offset}`, {
      headers: apiHeaders(key),
    });
    expect(response.status).toBe(200);
    const rows = (await response.json()) as Record<string, string>[];
    for (const row of rows) values.add(row[column]!);
    if (rows.length < 1000) return values;
  }
}

/** The acknowledged writes that are not on `server`, for the count and its examples. */
async function missingWrites(server: ServerProcess, key: string, acknowledged: Acknowledged) {
  const usernames = await readAll(server, key, 'users?select=username&username=like.durable_*', 'username');
  const emails = await readAll(server, key, 'newsletter_subscribers?select=email&email=like.durable-news-*', 'email');
  return {
    usernames: acknowledged.usernames.filter((username) => !usernames.has(username)),
    subscribers: acknowledged.subscribers.filter((email) => !emails.has(email)),
  };
}

test('acknowledged writes survive SIGKILL at random moments over five restarts; a second server on the same data directory refuses to start', async () => {
  test.skip(test.info().project.name !== 'js', 'runs its own servers once, in the js project');
  test.setTimeout(600_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'durability-'));
  const lost: string[] = [];
  const restarts: string[] = [];

  let server = await startServer(dataDir, SERVER_ENV);

  // A second process on the same directory must refuse (the backend's lock file), not corrupt it.
  const second = await spawnServer(dataDir, SERVER_ENV);
  const secondCode = await Promise.race([
    second.exited,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 60_000)),
  ]);
  if (secondCode === 'still running' || secondCode === 0) restarts.push(`a second server ran (${secondCode})`);
  else if (!second.output().includes(`is in use by process ${server.child.pid}`)) {
    restarts.push(`a second server refused without naming the process: ${second.output()}`);
  }
  expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);

  const acknowledged: Acknowledged = { usernames: [], subscribers: [] };
  const writeKey = await serviceRoleKey(dataDir);
  const kills: number[] = [];
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    const before = { usernames: acknowledged.usernames.length, subscribers: acknowledged.subscribers.length };
    const writer = writeUntilStopped(server, writeKey, cycle, acknowledged);
    // The random moment counts from this cycle's first acknowledged write of each kind: on a busy
    // machine the first sign-up can take longer than the shortest delay, and a kill before any
    // write would prove nothing (30 s without one is a failure below).
    const waitingSince = Date.now();
    while (
      (acknowledged.usernames.length === before.usernames || acknowledged.subscribers.length === before.subscribers) &&
      Date.now() - waitingSince < 30_000
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const killAfter = KILL_AFTER_MS.min + Math.floor(Math.random() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min));
    kills.push(killAfter);
    await new Promise((resolve) => setTimeout(resolve, killAfter));
    server.child.kill('SIGKILL'); // mid-write: no graceful close
    writer.stop();
    await server.exited;
    await writer.done;
    const during = `cycle ${cycle}, killed ${killAfter} ms after its first acknowledged writes`;
    // Each cycle acknowledged writes of both kinds before its kill, or the check below proves little.
    expect(acknowledged.usernames.length, `sign-ups acknowledged in ${during}`).toBeGreaterThan(before.usernames);
    expect(acknowledged.subscribers.length, `inserts acknowledged in ${during}`).toBeGreaterThan(before.subscribers);

    // Same directory, new process: the restart succeeds, the stale lock is taken over, and every
    // write acknowledged so far, in this cycle or an earlier one, is there.
    try {
      server = await startServer(dataDir, SERVER_ENV);
    } catch (error) {
      restarts.push(`restart after ${during}: ${String(error)}`);
      break;
    }
    const missing = await missingWrites(server, writeKey, acknowledged);
    lost.push(...[...missing.usernames, ...missing.subscribers].map((write) => `${write} (after ${during})`));
    // The accounts work, not just their rows: this cycle's last acknowledged sign-up signs in.
    const lastSignUp = acknowledged.usernames.at(-1)!;
    if ((await passwordSignIn(server, `${lastSignUp}@demo.test`, PASSWORD)) !== 200)
      lost.push(`${lastSignUp} cannot sign in (after ${during})`);
  }

  const writes = acknowledged.usernames.length + acknowledged.subscribers.length;
  console.log(
    `${CYCLES} SIGKILLs at ${kills.join(', ')} ms into the writes; ${writes} acknowledged writes ` +
      `(${acknowledged.usernames.length} sign-ups, ${acknowledged.subscribers.length} inserts)`,
  );
  recordTally({
    check: 'Durability: acknowledged writes lost',
    counts: `writes acknowledged before a SIGKILL (${CYCLES} at random moments) missing after the restart`,
    cases: writes,
    failures: lost,
  });
  recordTally({
    check: 'Durability: restarts',
    counts: 'restarts after a SIGKILL that failed, and a second server on the data directory that did not refuse',
    cases: CYCLES + 1,
    failures: restarts,
  });
  expect(lost).toEqual([]);
  expect(restarts).toEqual([]);

  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
});

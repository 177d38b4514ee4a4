/**
 * No query can hold the server (ADR 031): the whole app in this process, its database statements
 * limited to a short deadline for the test. An anonymous regex filter that backtracks for minutes,
 * and a statement that sleeps for a minute, end at their deadline: meanwhile `/healthz` answers at
 * once, another Data API request answers once the runaway is ended (not minutes later), and a
 * write acknowledged before the database thread was started again is still there after it. And
 * SIGTERM during a statement that would run for ten minutes ends the process at once.
 *
 * And no request waits for the database without end (ADR 032): an anonymous statement has a
 * shorter deadline than a signed-in one; a full queue and a long wait are answered 503 at once
 * (the app's page shows its 503 screen); one client past its share is answered 429 while another
 * client and the app's own calls for that same user go on; a request whose client went away while it waited never
 * runs; and `/healthz` says "degraded" meanwhile.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionLimits } from '../../packages/supabase-embedded/src/admission';
import { withClaims } from '../../packages/supabase-embedded/src/database';
import { signInThroughApp, startAppInProcess, type AppInProcess } from '../support/app-in-process';
import { recordTally } from '../support/security-tally';

/** The test's deadline of one statement (8 s by default). */
const DEADLINE_MS = 1_500;
/** A runaway statement ends within its deadline plus a new database thread's start (seconds on a busy CI machine). */
const ENDED_WITHIN_MS = DEADLINE_MS + 20_000;
/** `/healthz` and a timer while a statement runs: far below any deadline. */
const PROMPT_MS = 1_000;
/** The freeze: a backreference regex over every agent description, anonymous. */
const FREEZE = '^(.*)(.*)(.*)(.*)(.*)\\1\\2\\3\\4\\5$';

let app: AppInProcess;

const headers = (key: string) => ({ apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/** `/healthz` while something runs: its status and how long it took. */
async function health() {
  const started = Date.now();
  const response = await fetch(`${app.origin}/healthz`);
  return { status: response.status, ms: Date.now() - started };
}

describe('a deadline for every query', () => {
  beforeAll(async () => {
    process.env.EMBEDDED_STATEMENT_TIMEOUT_MS = String(DEADLINE_MS);
    app = await startAppInProcess();
  }, 180_000);
  afterAll(() => app?.close());

  it('ends a runaway query without holding the server or losing an acknowledged write', async () => {
    const failures: string[] = [];
    let cases = 0;
    const check = (ok: boolean, failure: string) => {
      cases++;
      if (!ok) failures.push(failure);
    };
    const anon = headers(app.backend.anonKey);
    const service = headers(app.backend.serviceRoleKey);

    // A write the server acknowledges before the runaway statement.
    const email = `deadline-${Date.now()}@demo.test`;
    const write = await fetch(`${app.origin}/rest/v1/newsletter_subscribers`, {
      method: 'POST',
      headers: { ...service, prefer: 'return=minimal' },
      body: JSON.stringify({ email }),
    });
    expect(write.status).toBe(201);
    const restarts = restartCount();

    // 1. The anonymous regex: refused, or ended at its deadline with PostgreSQL's own error.
    let started = Date.now();
    const freeze = fetch(`${app.origin}/rest/v1/agents?select=id&description=match.${encodeURIComponent(FREEZE)}`, {
      headers: anon,
    });
    const during = await health();
    check(
      during.status === 200 && during.ms < PROMPT_MS,
      `/healthz during the regex: ${during.status} in ${during.ms} ms`,
    );
    const answer = await freeze;
    const body = (await answer.json()) as { code?: string };
    const took = Date.now() - started;
    check(
      answer.status === 400 || (answer.status === 500 && body.code === '57014'),
      `regex answered ${answer.status} ${JSON.stringify(body)}`,
    );
    check(took < ENDED_WITHIN_MS, `regex answered after ${took} ms`);

    // 2. A request's statement that would run for a minute (as the Data API runs one).
    started = Date.now();
    const slow = withClaims(app.backend.db, { role: 'anon' }, (tx) => tx.query('select pg_sleep(60)')).catch(
      (error: unknown) => error,
    );
    const ticked = await new Promise<number>((resolve) => setTimeout(() => resolve(Date.now() - started), 100));
    check(ticked < PROMPT_MS, `a 100 ms timer fired after ${ticked} ms while the statement ran`);
    const healthy = await health();
    check(
      healthy.status === 200 && healthy.ms < PROMPT_MS,
      `/healthz during pg_sleep: ${healthy.status} in ${healthy.ms} ms`,
    );
    const other = await fetch(`${app.origin}/rest/v1/categories?select=slug&limit=1`, { headers: anon });
    const otherMs = Date.now() - started;
    check(other.status === 200, `another Data API request answered ${other.status}`);
    check(otherMs < ENDED_WITHIN_MS, `another Data API request answered after ${otherMs} ms`);
    const error = (await slow) as { code?: string; message?: string };
    check(error?.code === '57014', `the slow statement ended with ${JSON.stringify(error?.message ?? error)}`);
    check(restartCount() > restarts, 'the database thread was not started again');

    // 3. The acknowledged write is there after the restart.
    const read = await fetch(
      `${app.origin}/rest/v1/newsletter_subscribers?select=email&email=eq.${encodeURIComponent(email)}`,
      {
        headers: service,
      },
    );
    check(read.status === 200 && ((await read.json()) as unknown[]).length === 1, 'the acknowledged write was lost');

    recordTally({
      check: 'Query deadline',
      counts: 'requests held past the deadline, slow /healthz, lost writes',
      cases,
      failures,
    });
    expect(failures).toEqual([]);
  }, 120_000);

  it('gives an anonymous request a shorter deadline than a signed-in one, and says so on /healthz while it restarts', async () => {
    const db = app.backend.db;
    // Without EMBEDDED_ANON_STATEMENT_TIMEOUT_MS the anonymous deadline is 3 s, or the other one when shorter.
    expect(db.anonDeadlineMs).toBe(DEADLINE_MS);
    const anonDeadline = db.anonDeadlineMs;
    db.anonDeadlineMs = 400;
    try {
      const restarts = restartCount();
      let started = Date.now();
      const anon = withClaims(db, { role: 'anon' }, (tx) => tx.query('select pg_sleep(60)')).catch(
        (error: unknown) => error,
      );
      // While the thread is started again /healthz is up (200) but degraded, and says why.
      await waitFor(() => restartCount() > restarts, 10_000);
      const during = await fetch(`${app.origin}/healthz`);
      expect(during.status).toBe(200);
      expect(await during.json()).toEqual({
        status: 'degraded',
        database: 'up',
        reason: expect.stringContaining('started again'),
      });
      const error = (await anon) as { code?: string };
      const anonMs = Date.now() - started;
      expect(error.code).toBe('57014');
      expect(anonMs).toBeLessThan(DEADLINE_MS + 10_000);
      // A signed-in request's statement may run past the anonymous deadline (up to its own).
      started = Date.now();
      const { rows } = await withClaims(db, { role: 'authenticated', sub: randomUUID() }, (tx) =>
        tx.query('select 1 as done from pg_sleep(0.8)'),
      );
      expect(rows).toEqual([{ done: 1 }]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(800);
      expect(await (await fetch(`${app.origin}/healthz`)).json()).toEqual({ status: 'ok', database: 'up' });
    } finally {
      db.anonDeadlineMs = anonDeadline;
    }
  }, 60_000);

  it('answers 503 at once when too many wait, or one waited too long, and the app shows its 503 screen', async () => {
    const gate = app.backend.db.gate!;
    const anon = headers(app.backend.anonKey);
    await withLimits({ maxWaiting: 1, maxWaitMs: 300, degradedWaiting: 1 }, async () => {
      const hold = holdDatabase(2);
      await hold.started;
      const before = gate.waiting; // the app's own background work may wait too
      const waited = timed(fetch(`${app.origin}/rest/v1/categories?select=slug&limit=1`, { headers: anon }));
      await waitFor(() => gate.waiting > before, 5_000);
      // One waits: /healthz (threshold 1 here) says degraded, still 200.
      const health = await fetch(`${app.origin}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'degraded', reason: expect.stringContaining('waiting') });
      // The queue is full: the Data API and Storage answer at once.
      const full = await timed(fetch(`${app.origin}/rest/v1/categories?select=slug`, { headers: anon }));
      expect(full.ms).toBeLessThan(PROMPT_MS);
      await expectBusy(full.response);
      const storage = await timed(fetch(`${app.origin}/storage/v1/bucket`, { headers: anon }));
      expect(storage.ms).toBeLessThan(PROMPT_MS);
      expect(storage.response.status).toBe(503);
      expect(storage.response.headers.get('retry-after')).toBe('1');
      expect(await storage.response.json()).toMatchObject({ statusCode: '503', error: 'SlowDown' });
      // The one that waited is refused after the wait limit, before the database is free (it
      // would have been answered 200 then).
      const late = await waited;
      await expectBusy(late.response);
      expect(late.ms).toBeGreaterThanOrEqual(280);
      // A page whose read is turned away shows the app's 503 screen, not a 500.
      const page = await fetch(`${app.origin}/agent/${randomUUID()}`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('Service unavailable');
      await hold.done;
    });
    expect(gate.refused.busy).toBeGreaterThanOrEqual(2);
    expect(gate.refused.waited).toBeGreaterThanOrEqual(1);
    // Free again: the same request is answered.
    const after = await fetch(`${app.origin}/rest/v1/categories?select=slug&limit=1`, { headers: anon });
    expect(after.status).toBe(200);
  }, 60_000);

  it("lets one client have only so many requests in the database; other clients and the app's own calls go on", async () => {
    const anon = headers(app.backend.anonKey);
    const user = { ...anon, authorization: `Bearer ${await accessToken('buyer@demo.test')}` };
    const cookie = await signInThroughApp(app.origin, 'buyer@demo.test');
    await withLimits({ perClient: 2, maxWaitMs: 10_000 }, async () => {
      const hold = holdDatabase(2);
      await hold.started;
      const before = app.backend.db.gate!.waiting; // the app's own background work may wait too
      const url = `${app.origin}/rest/v1/categories?select=slug&limit=1`;
      const first = [fetch(url, { headers: user }), fetch(url, { headers: user })];
      await waitFor(() => app.backend.db.gate!.waiting >= before + 2, 5_000);
      // This user (their token's subject) has two in the database: a third is refused at once.
      const third = await timed(fetch(url, { headers: user }));
      expect(third.ms).toBeLessThan(PROMPT_MS);
      expect(third.response.status).toBe(429);
      expect(third.response.headers.get('retry-after')).toBe('1');
      expect(await third.response.json()).toMatchObject({
        code: '53300',
        message: 'Too many requests of this client in the database at once (at most 2).',
      });
      // A visitor without a session at the same address is another client, and the app's own
      // calls (in process) for this same user, a dashboard of several reads, are nobody's share.
      const others = [
        fetch(url, { headers: anon }),
        fetch(url, { headers: anon }),
        fetch(`${app.origin}/dashboard`, { headers: { cookie } }),
      ];
      const statuses = (await Promise.all([...first, ...others])).map((response) => response.status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      await hold.done;
    });
  }, 60_000);

  it('does not run a request whose client went away while it waited', async () => {
    const gate = app.backend.db.gate!;
    const cancelled = gate.refused.cancelled;
    const email = `gone-${Date.now()}@demo.test`;
    const service = headers(app.backend.serviceRoleKey);
    const hold = holdDatabase(2);
    await hold.started;
    const before = gate.waiting; // the app's own background work may wait too
    const controller = new AbortController();
    const gone = fetch(`${app.origin}/rest/v1/newsletter_subscribers`, {
      method: 'POST',
      headers: { ...service, prefer: 'return=minimal' },
      body: JSON.stringify({ email }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await waitFor(() => gate.waiting > before, 5_000, 'the request to wait');
    controller.abort();
    await gone;
    await waitFor(() => gate.refused.cancelled > cancelled, 5_000, 'the request to leave the queue');
    await hold.done;
    const read = await fetch(
      `${app.origin}/rest/v1/newsletter_subscribers?select=email&email=eq.${encodeURIComponent(email)}`,
      { headers: service },
    );
    expect(await read.json()).toEqual([]);
  }, 60_000);
});

describe('shutdown during a long statement', () => {
  it('SIGTERM ends the process within seconds and frees the data directory', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deadline-shutdown-'));
    try {
      const child = spawn(process.execPath, ['tests/support/slow-query-child.js', dataDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await waitFor(() => output.includes('BUSY'), 90_000);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the statement is running
      const signalled = Date.now();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(killer);
      const took = Date.now() - signalled;
      recordTally({
        check: 'Shutdown during a long query',
        counts: 'SIGTERMs not ending the process within 10 s',
        cases: 1,
        failures: code === 0 && took < 10_000 ? [] : [`exit ${code} after ${took} ms: ${output.slice(-300)}`],
      });
      expect({ code, output }).toMatchObject({ code: 0, output: expect.stringContaining('CLOSED') });
      expect(took).toBeLessThan(10_000);
      expect(existsSync(path.join(dataDir, 'backend.lock'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});

async function waitFor(condition: () => boolean, timeoutMs: number, what = 'the child') {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function restartCount(): number {
  return (app.backend.db as { restarts?: number }).restarts ?? 0;
}

/**
 * Holds the database as a request would, for `seconds`: a signed-in user's transaction, run in
 * process (it counts as no client's), its deadline raised for it so that a busy machine does not
 * end it early. `started` resolves once it has its turn: every request after it waits.
 */
function holdDatabase(seconds: number) {
  const db = app.backend.db;
  const deadline = db.deadlineMs;
  db.deadlineMs = seconds * 1000 + 10_000;
  let begun: () => void = () => {};
  const started = new Promise<void>((resolve) => (begun = resolve));
  const done = withClaims(db, { role: 'authenticated', sub: randomUUID() }, (tx) => {
    begun();
    return tx.query(`select pg_sleep(${seconds})`);
  }).finally(() => {
    db.deadlineMs = deadline;
  });
  return { started, done };
}

/** Runs `work` with the gate's limits changed, then puts them back. */
async function withLimits(limits: Partial<AdmissionLimits>, work: () => Promise<void>) {
  const gate = app.backend.db.gate!;
  const before = gate.limits;
  gate.limits = { ...before, ...limits };
  try {
    await work();
  } finally {
    gate.limits = before;
  }
}

async function timed(request: Promise<Response>) {
  const started = Date.now();
  const response = await request;
  return { response, ms: Date.now() - started };
}

/** The Data API's answer when the database is busy: PostgREST's shape, 503, a Retry-After. */
async function expectBusy(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('1');
  expect(await response.json()).toEqual({
    code: 'PGRST003',
    message: 'Timed out acquiring connection from connection pool.',
    details: expect.stringMatching(/^The database is busy: /),
    hint: 'Try again in a few seconds.',
  });
}

async function accessToken(email: string): Promise<string> {
  const response = await fetch(`${app.origin}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: app.backend.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo-password' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * No query can hold the server (ADR 031): the whole app in this process, its database statements
 * limited to a short deadline for the test. An anonymous regex filter that backtracks for minutes,
 * and a statement that sleeps for a minute, end at their deadline: meanwhile `/healthz` answers at
 * once, another Data API request answers once the runaway is ended (not minutes later), and a
 * write acknowledged before the database thread was started again is still there after it. And
 * SIGTERM during a statement that would run for ten minutes ends the process at once.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withClaims } from '../../supabase/local/database';
import { startAppInProcess, type AppInProcess } from '../support/app-in-process';
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

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting for the child');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function restartCount(): number {
  return (app.backend.db as { restarts?: number }).restarts ?? 0;
}

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceSupabase, throwawaySupabase } from '~/server/supabase.server';
import { memoryWindows, type RateLimitClock } from '../../packages/supabase-embedded/src/fixed-window';
import type { EmbeddedBackend } from '@agentmarket/supabase-embedded';
import { openTwoBackends, type TwoBackends } from '../../tests/support/two-backends';
import { createFailureDelay, createRateLimit, databaseWindows } from './rate-limit.server';

describe('rate limit', () => {
  afterEach(() => vi.useRealTimers());

  it('allows the limit, refuses the next, and resets after the window', async () => {
    vi.useFakeTimers();
    const windows = memoryWindows();
    const limiter = createRateLimit({ name: 'test', limit: 10, windowMs: 60_000 });
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await limiter.consume(windows, ['ip:1'])).allowed).toBe(true);
    const refused = await limiter.consume(windows, ['ip:1']);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(60);
    vi.advanceTimersByTime(60_001);
    expect((await limiter.consume(windows, ['ip:1'])).allowed).toBe(true);
  });

  it('counts per key: an email is capped across client addresses', async () => {
    const windows = memoryWindows();
    const limiter = createRateLimit({ name: 'test', limit: 3, windowMs: 60_000 });
    for (let ip = 0; ip < 3; ip++) {
      expect((await limiter.consume(windows, [`ip:${ip}`, 'email:a@b.c'])).allowed).toBe(true);
    }
    expect((await limiter.consume(windows, ['ip:99', 'email:a@b.c'])).allowed).toBe(false);
    expect((await limiter.consume(windows, ['ip:99', 'email:other@b.c'])).allowed).toBe(true);
  });

  it('keeps the counts of two limits apart in one store', async () => {
    const windows = memoryWindows();
    const strict = createRateLimit({ name: 'strict', limit: 1, windowMs: 60_000 });
    const loose = createRateLimit({ name: 'loose', limit: 5, windowMs: 60_000 });
    expect((await strict.consume(windows, ['ip:1'])).allowed).toBe(true);
    expect((await loose.consume(windows, ['ip:1'])).allowed).toBe(true);
    expect((await strict.consume(windows, ['ip:1'])).allowed).toBe(false);
    expect((await loose.consume(windows, ['ip:1'])).allowed).toBe(true);
  });
});

describe('failure delay', () => {
  it('slows a key down after its free failures, doubling up to the maximum, and never refuses', async () => {
    const slept: number[] = [];
    let now = 0;
    const windows = memoryWindows({ now: () => now, sleep: async (ms: number) => void slept.push(ms) });
    const delay = createFailureDelay({ name: 'test', freeFailures: 2, windowMs: 60_000 });
    for (let failure = 0; failure < 8; failure++) {
      await delay.wait(windows, 'account:a');
      await delay.fail(windows, 'account:a');
    }
    expect(slept).toEqual([250, 500, 1000, 2000, 4000, 5000]);
    await delay.wait(windows, 'account:other');
    expect(slept).toHaveLength(6);
    now = 60_001;
    await delay.wait(windows, 'account:a');
    expect(slept).toHaveLength(6);
  });
});

/**
 * The form limits as every app server counts them: in `public.rate_limit_windows` through the
 * service role's RPCs, here from two backends on one database (one on PGlite).
 */
describe('form limits shared through the database', () => {
  let backends: TwoBackends;
  let now = Date.now();
  const clock: RateLimitClock = { now: () => now, sleep: async () => {} };
  const connection = (backend: EmbeddedBackend) => ({
    url: 'http://localhost',
    anonKey: backend.anonKey,
    serviceRoleKey: backend.serviceRoleKey,
    fetch: backend.fetch,
  });
  const windowsOf = (backend: EmbeddedBackend) => databaseWindows(createServiceSupabase(connection(backend)), clock);

  beforeAll(async () => {
    backends = await openTwoBackends();
  });
  afterAll(() => backends?.close());

  it('allows 10 attempts from one address across both servers, refuses the 11th, and opens a new window a minute later', async () => {
    const limit = createRateLimit({ name: 'forms-address', limit: 10, windowMs: 60_000 });
    const servers = [windowsOf(backends.a), windowsOf(backends.b)];
    const answers = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      answers.push(await limit.consume(servers[attempt % 2]!, ['198.51.100.1']));
    }
    expect(answers.map((answer) => answer.allowed)).toEqual([...Array<boolean>(10).fill(true), false]);
    expect(answers[10]!.retryAfterSeconds).toBe(60);
    now += 60_000;
    expect(await limit.consume(servers[1]!, ['198.51.100.1'])).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });

  it('stores digests of the keys, never an address or an email', async () => {
    const limit = createRateLimit({ name: 'forms-email-address', limit: 10, windowMs: 60_000 });
    await limit.consume(windowsOf(backends.a), [JSON.stringify(['ada@example.com', '198.51.100.2'])]);
    const { rows } = await backends.b.db.query<{ key: string }>('select key from public.rate_limit_windows');
    expect(rows.length).toBeGreaterThan(0);
    for (const { key } of rows) expect(key).toMatch(/^[\w-]{43}$/);
  });

  it('lets only the service role count: the API keys and users are refused', async () => {
    const anon = throwawaySupabase(connection(backends.a));
    const args = { window_key: 'x', window_ms: 60_000, at_time: new Date(now).toISOString() };
    const refused = await anon.rpc('rate_limit_add', args);
    expect(refused.error?.code).toBe('42501');
    expect((await anon.from('rate_limit_windows').select('key')).error?.code).toBe('42501');
  });

  it('still limits, in this process, when the database cannot count (here: no permission)', async () => {
    // A client with the anon key is refused by the RPC: the limit falls back to the process's count.
    const refusedWindows = databaseWindows(throwawaySupabase(connection(backends.a)), clock, memoryWindows(clock));
    const limit = createRateLimit({ name: 'fallback', limit: 2, windowMs: 60_000 });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const allowed = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      allowed.push((await limit.consume(refusedWindows, ['198.51.100.3'])).allowed);
    }
    expect(allowed).toEqual([true, true, false]);
    expect(errors).toHaveBeenCalledTimes(3);
    errors.mockRestore();
  });
});

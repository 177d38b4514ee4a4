import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryWindows } from '../../supabase/local/fixed-window';
import { createFailureDelay, createRateLimit } from './rate-limit.server';

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

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFailureDelay, createRateLimit } from './rate-limit.server';

describe('rate limit', () => {
  afterEach(() => vi.useRealTimers());

  it('allows the limit, refuses the next, and resets after the window', () => {
    vi.useFakeTimers();
    const limiter = createRateLimit({ limit: 10, windowMs: 60_000 });
    for (let attempt = 0; attempt < 10; attempt++) expect(limiter.consume(['ip:1']).allowed).toBe(true);
    const refused = limiter.consume(['ip:1']);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(60);
    vi.advanceTimersByTime(60_001);
    expect(limiter.consume(['ip:1']).allowed).toBe(true);
  });

  it('counts per key: an email is capped across client addresses', () => {
    const limiter = createRateLimit({ limit: 3, windowMs: 60_000 });
    for (let ip = 0; ip < 3; ip++) expect(limiter.consume([`ip:${ip}`, 'email:a@b.c']).allowed).toBe(true);
    expect(limiter.consume(['ip:99', 'email:a@b.c']).allowed).toBe(false);
    expect(limiter.consume(['ip:99', 'email:other@b.c']).allowed).toBe(true);
  });
});

describe('failure delay', () => {
  it('slows a key down after its free failures, doubling up to the maximum, and never refuses', async () => {
    const slept: number[] = [];
    let now = 0;
    const clock = { now: () => now, sleep: async (ms: number) => void slept.push(ms) };
    const delay = createFailureDelay({ freeFailures: 2, windowMs: 60_000, clock });
    for (let failure = 0; failure < 8; failure++) {
      await delay.wait('account:a');
      delay.fail('account:a');
    }
    expect(slept).toEqual([250, 500, 1000, 2000, 4000, 5000]);
    await delay.wait('account:other');
    expect(slept).toHaveLength(6);
    now = 60_001;
    await delay.wait('account:a');
    expect(slept).toHaveLength(6);
  });
});

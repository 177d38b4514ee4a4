/**
 * Fixed-window counters with an injectable clock, and the progressive delay of failed sign-ins.
 * Dependency-free, so that both the embedded Auth's limits (auth/rate-limit.ts) and the app's own
 * form limits (app/server/rate-limit.server.ts) count the same way without either importing the
 * other's service code. Where the counts live is the caller's choice: in a database table that
 * every process on the database shares (the Auth's `auth.local_rate_limits`, the app's
 * `public.rate_limit_windows`), or, with no database to share, in this process's memory.
 */
import { createHash } from 'node:crypto';

/** Time as the limiters see it; tests pass a fake one instead of sleeping. */
export interface RateLimitClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: RateLimitClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The first delayed attempt waits this long; each further failure doubles it, up to the maximum. */
export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 5_000;

/** Milliseconds an attempt waits after `failures` failures (0 below `threshold`). */
export function progressiveDelay(failures: number, threshold: number): number {
  if (failures < threshold) return 0;
  return Math.min(FIRST_DELAY_MS * 2 ** Math.min(failures - threshold, 16), MAX_DELAY_MS);
}

/** One key's open window: attempts so far and when (ms, on the limiter's clock) it closes. */
export interface FixedWindow {
  count: number;
  resetAt: number;
}

/**
 * Counters by key, each in its own fixed window that opens with the key's first attempt. A store
 * shared by several processes must make `add` atomic (one upsert), so that none loses a count.
 */
export interface FixedWindows {
  /** The time the windows are counted in: the limits' `Retry-After` and delays use it too. */
  readonly clock: RateLimitClock;
  /** Counts one more for `key` (a new window of `windowMs` when none is open) and returns the window. */
  add(key: string, windowMs: number): Promise<FixedWindow>;
  /** `key`'s open window, or null when none is open. */
  peek(key: string): Promise<FixedWindow | null>;
}

/**
 * A key as a database store keeps it: a SHA-256 digest, so that the table holds no email or
 * client address and every key has the same short length.
 */
export const storedKey = (key: string) => createHash('sha256').update(key).digest('base64url');

/** Seconds until `window` closes, at least 1 (a `Retry-After` value). */
export function secondsUntilReset(window: FixedWindow, clock: RateLimitClock): number {
  return Math.max(1, Math.ceil((window.resetAt - clock.now()) / 1000));
}

/** The windows of this process alone; expired ones are pruned once there are many. */
export function memoryWindows(clock: RateLimitClock = systemClock): FixedWindows {
  const windows = new Map<string, FixedWindow>();
  const open = (key: string) => {
    const window = windows.get(key);
    return window && window.resetAt > clock.now() ? window : null;
  };
  return {
    clock,
    async add(key, windowMs) {
      const now = clock.now();
      if (windows.size > 50_000) {
        for (const [stale, window] of windows) if (window.resetAt <= now) windows.delete(stale);
      }
      const window = open(key) ?? { count: 0, resetAt: now + windowMs };
      window.count += 1;
      windows.set(key, window);
      return { ...window };
    },
    async peek(key) {
      const window = open(key);
      return window ? { ...window } : null;
    },
  };
}

/**
 * Fixed-window counters kept in process memory, with an injectable clock, and the progressive
 * delay of failed sign-ins. Dependency-free, so that both the embedded Auth's limits
 * (auth/rate-limit.ts) and the app's own form limits (app/server/rate-limit.server.ts) count
 * the same way without either importing the other's service code.
 */

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

/** Counters by key, each in its own fixed window; expired windows are pruned once there are many. */
export function createFixedWindows(clock: RateLimitClock = systemClock) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    /** Counts one more for `key` (a new window of `windowMs` when none is open) and returns the window. */
    add(key: string, windowMs: number): { count: number; resetAt: number } {
      const now = clock.now();
      if (windows.size > 50_000) {
        for (const [stale, window] of windows) if (window.resetAt <= now) windows.delete(stale);
      }
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return window;
    },
    /** The count of `key`'s open window (0 when none is open). */
    count(key: string): number {
      const window = windows.get(key);
      return window && window.resetAt > clock.now() ? window.count : 0;
    },
  };
}

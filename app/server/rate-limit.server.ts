/**
 * Rate limits of the app's own sign-in, sign-up and reset forms, kept in process memory. Enough
 * for one app server; several servers behind a load balancer each keep their own count
 * (docs/security/rate-limits.md, docs/decisions/009-sign-in-rate-limits.md).
 */
import { env } from '~/server/env.server';
import {
  createFixedWindows,
  progressiveDelay,
  systemClock,
  type RateLimitClock,
} from '../../supabase/local/fixed-window';

export { FIRST_DELAY_MS, MAX_DELAY_MS, progressiveDelay, systemClock } from '../../supabase/local/fixed-window';
export type Clock = RateLimitClock;

export interface RateLimit {
  /** Records an attempt for each key; false when any key is over its limit. */
  consume(keys: string[]): { allowed: boolean; retryAfterSeconds: number };
}

/** A fixed window per key: `limit` attempts per `windowMs`. */
export function createRateLimit({
  limit,
  windowMs,
  clock = systemClock,
}: {
  limit: number;
  windowMs: number;
  clock?: Clock;
}): RateLimit {
  const windows = createFixedWindows(clock);
  return {
    consume(keys) {
      let retryAfterMs = 0;
      for (const key of keys) {
        const window = windows.add(key, windowMs);
        if (window.count > limit) retryAfterMs = Math.max(retryAfterMs, window.resetAt - clock.now());
      }
      return { allowed: retryAfterMs === 0, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
    },
  };
}

export interface FailureDelay {
  /** Waits the delay that the key's recent failures earned (none below the threshold). */
  wait(key: string): Promise<void>;
  /** Records one failure for the key. */
  fail(key: string): void;
}

/**
 * Slows down, never refuses: after `freeFailures` failures for a key within `windowMs`, every
 * further attempt waits {@link progressiveDelay}. Used per account, where a hard limit would let
 * anyone lock the owner out by failing on purpose.
 */
export function createFailureDelay({
  freeFailures,
  windowMs,
  clock = systemClock,
}: {
  freeFailures: number;
  windowMs: number;
  clock?: Clock;
}): FailureDelay {
  const failures = createFixedWindows(clock);
  return {
    async wait(key) {
      const delay = progressiveDelay(failures.count(key), freeFailures);
      if (delay > 0) await clock.sleep(delay);
    },
    fail(key) {
      failures.add(key, windowMs);
    },
  };
}

/**
 * The forms' limits (env: AUTH_RATE_LIMIT_PER_IP, AUTH_RATE_LIMIT_PER_EMAIL,
 * AUTH_FAILURES_BEFORE_DELAY): attempts per minute per client address, per email address from
 * one client address, and the per-account delay after failed sign-ins from any address.
 */
export const authRateLimitByAddress = createRateLimit({ limit: env.AUTH_RATE_LIMIT_PER_IP, windowMs: 60_000 });
export const authRateLimitByEmailAndAddress = createRateLimit({
  limit: env.AUTH_RATE_LIMIT_PER_EMAIL,
  windowMs: 60_000,
});
export const signInFailuresByAccount = createFailureDelay({
  freeFailures: env.AUTH_FAILURES_BEFORE_DELAY,
  windowMs: 60 * 60_000,
});

export const RATE_LIMIT_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

/**
 * Newsletter sign-ups: 5 a minute per client address (NEWSLETTER_RATE_LIMIT_PER_IP overrides it,
 * e.g. for end-to-end tests that share one address). The action writes with the service role,
 * so this limit, not row-level security, is what stops one client from filling the table.
 */
export const newsletterRateLimitByAddress = createRateLimit({
  limit: env.NEWSLETTER_RATE_LIMIT_PER_IP,
  windowMs: 60_000,
});

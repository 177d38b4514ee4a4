/**
 * Rate limits of the app's own forms (sign-in, sign-up, reset, newsletter; the two-factor code's
 * in two-factor.server.ts). They count in the database, `public.rate_limit_windows` through the
 * service role's `rate_limit_add` / `rate_limit_peek` RPCs, so every app server on one database
 * shares one count (docs/security/rate-limits.md, docs/decisions/022-shared-state.md). Without a
 * service role key, or while the RPC fails, they count in this process alone, as they used to.
 */
import type { RouterContextProvider } from 'react-router';
import { connectionContext } from '~/context';
import { env } from '~/server/env.server';
import { backendKey, createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import {
  memoryWindows,
  progressiveDelay,
  storedKey,
  systemClock,
  type FixedWindow,
  type FixedWindows,
  type RateLimitClock,
} from '@agentmarket/supabase-embedded/shared';

export { FIRST_DELAY_MS, MAX_DELAY_MS, progressiveDelay, systemClock } from '@agentmarket/supabase-embedded/shared';
export type { FixedWindows } from '@agentmarket/supabase-embedded/shared';
export type Clock = RateLimitClock;

/** This process's own count: without a service role key, and while the database's is unreachable. */
const processWindows = memoryWindows();

/**
 * The windows in the database, reached with the service role. A failed call is logged and counted
 * in `fallback` instead: a limit still holds (per process), and a form never fails because of it.
 */
export function databaseWindows(
  service: AppSupabaseClient,
  clock: RateLimitClock = systemClock,
  fallback: FixedWindows = processWindows,
): FixedWindows {
  const at = () => new Date(clock.now()).toISOString();
  const toWindow = (row: { attempts: number; resets_at: string }): FixedWindow => ({
    count: row.attempts,
    resetAt: Date.parse(row.resets_at),
  });
  return {
    clock,
    async add(key, windowMs) {
      const args = { window_key: storedKey(key), window_ms: windowMs, at_time: at() };
      const { data, error } = await service.rpc('rate_limit_add', args);
      if (error || !data[0]) {
        console.error('Rate limit count failed; counting in this process:', error?.message);
        return fallback.add(key, windowMs);
      }
      return toWindow(data[0]);
    },
    async peek(key) {
      const { data, error } = await service.rpc('rate_limit_peek', { window_key: storedKey(key), at_time: at() });
      if (error) {
        console.error('Rate limit read failed; reading this process’s count:', error.message);
        return fallback.peek(key);
      }
      return data[0] ? toWindow(data[0]) : null;
    },
  };
}

const sharedWindows = new Map<string, FixedWindows>();

/** Where this request's form limits count: the backend's database, one store per backend. */
export function formWindows(context: Readonly<RouterContextProvider>): FixedWindows {
  const connection = context.get(connectionContext);
  if (!connection.serviceRoleKey) return processWindows;
  const key = backendKey(connection);
  let windows = sharedWindows.get(key);
  if (!windows) {
    windows = databaseWindows(createServiceSupabase(connection));
    sharedWindows.set(key, windows);
  }
  return windows;
}

export interface RateLimit {
  /** Records an attempt for each key; not allowed when any key is over its limit. */
  consume(windows: FixedWindows, keys: string[]): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
}

/** A fixed window per key: `limit` attempts per `windowMs`; `name` keeps each limit's keys apart. */
export function createRateLimit({
  name,
  limit,
  windowMs,
}: {
  name: string;
  limit: number;
  windowMs: number;
}): RateLimit {
  return {
    async consume(windows, keys) {
      // Each key is one round trip to the database: counted side by side, not one after another.
      const counted = await Promise.all(keys.map((key) => windows.add(`${name}:${key}`, windowMs)));
      const retryAfterMs = Math.max(
        0,
        ...counted.filter((window) => window.count > limit).map((window) => window.resetAt - windows.clock.now()),
      );
      return { allowed: retryAfterMs === 0, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
    },
  };
}

export interface FailureDelay {
  /** Waits the delay that the key's recent failures earned (none below the threshold). */
  wait(windows: FixedWindows, key: string): Promise<void>;
  /** Records one failure for the key. */
  fail(windows: FixedWindows, key: string): Promise<void>;
}

/**
 * Slows down, never refuses: after `freeFailures` failures for a key within `windowMs`, every
 * further attempt waits {@link progressiveDelay}. Used per account, where a hard limit would let
 * anyone lock the owner out by failing on purpose.
 */
export function createFailureDelay({
  name,
  freeFailures,
  windowMs,
}: {
  name: string;
  freeFailures: number;
  windowMs: number;
}): FailureDelay {
  return {
    async wait(windows, key) {
      const failures = (await windows.peek(`${name}:${key}`))?.count ?? 0;
      const delay = progressiveDelay(failures, freeFailures);
      if (delay > 0) await windows.clock.sleep(delay);
    },
    async fail(windows, key) {
      await windows.add(`${name}:${key}`, windowMs);
    },
  };
}

/**
 * The forms' limits (env: AUTH_RATE_LIMIT_PER_IP, AUTH_RATE_LIMIT_PER_EMAIL,
 * AUTH_FAILURES_BEFORE_DELAY): attempts per minute per client address, per email address from
 * one client address, and the per-account delay after failed sign-ins from any address.
 */
export const authRateLimitByAddress = createRateLimit({
  name: 'forms-address',
  limit: env.AUTH_RATE_LIMIT_PER_IP,
  windowMs: 60_000,
});
export const authRateLimitByEmailAndAddress = createRateLimit({
  name: 'forms-email-address',
  limit: env.AUTH_RATE_LIMIT_PER_EMAIL,
  windowMs: 60_000,
});
export const signInFailuresByAccount = createFailureDelay({
  name: 'sign-in-failures',
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
  name: 'newsletter-address',
  limit: env.NEWSLETTER_RATE_LIMIT_PER_IP,
  windowMs: 60_000,
});

/**
 * Licence checks (`POST /api/v1/licenses/verify`): per client address, and per key from any
 * address, so that neither one caller nor many can try keys quickly (LICENSE_VERIFY_RATE_LIMIT_*).
 */
export const licenseVerifyByAddress = createRateLimit({
  name: 'license-verify-address',
  limit: env.LICENSE_VERIFY_RATE_LIMIT_PER_IP,
  windowMs: 60_000,
});
export const licenseVerifyByKey = createRateLimit({
  name: 'license-verify-key',
  limit: env.LICENSE_VERIFY_RATE_LIMIT_PER_KEY,
  windowMs: 60_000,
});

/** Seller API requests per minute per API token (API_RATE_LIMIT_PER_TOKEN). */
export const apiRateLimitByToken = createRateLimit({
  name: 'api-token',
  limit: env.API_RATE_LIMIT_PER_TOKEN,
  windowMs: 60_000,
});

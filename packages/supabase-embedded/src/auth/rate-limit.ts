/**
 * Rate limits of the embedded Auth, after hosted Supabase's `[auth.rate_limit]` (config.toml):
 * each request of a limited kind counts against its client address in a fixed window, and the
 * request over the limit gets GoTrue's 429 (`over_request_rate_limit`, or
 * `over_email_send_rate_limit` for emails). Counts live in `auth.local_rate_limits`, one row per
 * key counted with one atomic upsert, so every process on one database shares them (the
 * server-backed mode) and a restart keeps them (docs/security/rate-limits.md).
 *
 * Password sign-ins also count failures per account, whatever the address. Past a threshold
 * each further attempt on that account waits a growing delay instead of being refused, so
 * someone guessing from many addresses is slowed while the owner, from an address of their
 * own, still signs in (docs/decisions/009-sign-in-rate-limits.md).
 */
import { clientAddressOf } from '../client-address';
import type { Queryable } from '../database';
import {
  progressiveDelay,
  secondsUntilReset,
  storedKey,
  systemClock,
  type FixedWindows,
  type RateLimitClock,
} from '../fixed-window';
import { AuthError } from './errors';

/** Requests per window and client address; the keys of `[auth.rate_limit]`. */
export interface AuthRateLimits {
  /** Requests that send an email (`/otp`, `/magiclink`, `/recover`, `/resend`, sign-up with confirmations) per hour. */
  emailSent: number;
  /** Anonymous sign-ins per hour. */
  anonymousUsers: number;
  /** Refresh-token grants per 5 minutes. */
  tokenRefresh: number;
  /** Password, PKCE and ID-token grants and sign-ups per 5 minutes. */
  signInSignUps: number;
  /** `/verify` and MFA challenges and verifications per 5 minutes. */
  tokenVerifications: number;
  /** Failed password sign-ins on one account (any address) per hour before each further attempt is delayed. */
  accountFailuresBeforeDelay: number;
}

/** The Supabase CLI's defaults, except `email_sent` (2/hour is the hosted built-in mailer's budget). */
export const DEFAULT_RATE_LIMITS: AuthRateLimits = {
  emailSent: 30,
  anonymousUsers: 30,
  tokenRefresh: 150,
  signInSignUps: 30,
  tokenVerifications: 30,
  accountFailuresBeforeDelay: 10,
};

export type RateLimitKind = 'emailSent' | 'anonymousUsers' | 'tokenRefresh' | 'signInSignUps' | 'tokenVerifications';

const MINUTE = 60_000;
const WINDOW_MS: Record<RateLimitKind, number> = {
  emailSent: 60 * MINUTE,
  anonymousUsers: 60 * MINUTE,
  tokenRefresh: 5 * MINUTE,
  signInSignUps: 5 * MINUTE,
  tokenVerifications: 5 * MINUTE,
};
const ACCOUNT_WINDOW_MS = 60 * MINUTE;
export { FIRST_DELAY_MS, MAX_DELAY_MS, progressiveDelay, systemClock, type RateLimitClock } from '../fixed-window';

export interface AuthRateLimiter {
  /** Counts a request of `kind` from the request's client address; throws the 429 when over the limit. */
  hit(kind: RateLimitKind, request: Request): Promise<void>;
  /**
   * Counts a request of `kind` against one account, whatever the address: second-factor codes
   * guessed from many addresses share the account's budget. Throws the same 429.
   */
  hitAccount(kind: RateLimitKind, userId: string): Promise<void>;
  /** Before a password is checked for `email`: waits the delay the account's recent failures earned. */
  beforePasswordCheck(email: string): Promise<void>;
  /** Records a failed password sign-in for `email`. */
  passwordFailed(email: string): Promise<void>;
}

export function createAuthRateLimiter(limits: AuthRateLimits, windows: FixedWindows): AuthRateLimiter {
  const { clock } = windows;
  const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
  const count = async (kind: RateLimitKind, key: string) => {
    const window = await windows.add(key, WINDOW_MS[kind]);
    if (window.count <= limits[kind]) return;
    const headers = { 'retry-after': String(secondsUntilReset(window, clock)) };
    throw kind === 'emailSent'
      ? new AuthError(429, 'over_email_send_rate_limit', 'email rate limit exceeded', {}, headers)
      : new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached', {}, headers);
  };
  return {
    hit: (kind, request) => count(kind, `${kind}:${clientAddressOf(request)}`),
    hitAccount: (kind, userId) => count(kind, `${kind}:user:${userId}`),
    async beforePasswordCheck(email) {
      const failures = (await windows.peek(accountKey(email)))?.count ?? 0;
      const delay = progressiveDelay(failures, limits.accountFailuresBeforeDelay);
      if (delay > 0) await clock.sleep(delay);
    },
    async passwordFailed(email) {
      await windows.add(accountKey(email), ACCOUNT_WINDOW_MS);
    },
  };
}

/** Expired windows are deleted at most this often per process (they count as absent meanwhile). */
const PRUNE_EVERY_MS = 60_000;

/**
 * The Auth's windows in `auth.local_rate_limits` (packages/supabase-embedded/src/auth/schema.sql), on PGlite and
 * on a server alike. Each attempt is one upsert: it opens a new window when the key's has closed,
 * else adds one, and returns the result; concurrent attempts from any process serialise on the
 * key's row, so none is lost. Times come from `clock` (a fake one in tests), not the database's.
 */
export function databaseWindows(db: Queryable, clock: RateLimitClock = systemClock): FixedWindows {
  let prunedAt = -Infinity;
  const toWindow = (row: { count: number; reset_at: Date }) => ({ count: row.count, resetAt: row.reset_at.getTime() });
  return {
    clock,
    async add(key, windowMs) {
      const now = clock.now();
      if (now - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now;
        await db.query('delete from auth.local_rate_limits where reset_at <= $1', [new Date(now)]);
      }
      const { rows } = await db.query<{ count: number; reset_at: Date }>(
        `insert into auth.local_rate_limits as w (key, count, reset_at) values ($1, 1, $3)
         on conflict (key) do update set
           count = case when w.reset_at <= $2 then 1 else w.count + 1 end,
           reset_at = case when w.reset_at <= $2 then excluded.reset_at else w.reset_at end
         returning count, reset_at`,
        [storedKey(key), new Date(now), new Date(now + windowMs)],
      );
      return toWindow(rows[0]!);
    },
    async peek(key) {
      const { rows } = await db.query<{ count: number; reset_at: Date }>(
        'select count, reset_at from auth.local_rate_limits where key = $1 and reset_at > $2',
        [storedKey(key), new Date(clock.now())],
      );
      return rows[0] ? toWindow(rows[0]) : null;
    },
  };
}

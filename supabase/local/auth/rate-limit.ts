/**
 * Rate limits of the embedded Auth, after hosted Supabase's `[auth.rate_limit]` (config.toml):
 * each request of a limited kind counts against its client address in a fixed window, and the
 * request over the limit gets GoTrue's 429 (`over_request_rate_limit`, or
 * `over_email_send_rate_limit` for emails). Counts live in process memory: one process, one
 * count (docs/security/rate-limits.md).
 *
 * Password sign-ins also count failures per account, whatever the address. Past a threshold
 * each further attempt on that account waits a growing delay instead of being refused, so
 * someone guessing from many addresses is slowed while the owner, from an address of their
 * own, still signs in (docs/decisions/009-sign-in-rate-limits.md).
 */
import { clientAddressOf } from '../client-address';
import { createFixedWindows, progressiveDelay, systemClock, type RateLimitClock } from '../fixed-window';
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
  hit(kind: RateLimitKind, request: Request): void;
  /** Before a password is checked for `email`: waits the delay the account's recent failures earned. */
  beforePasswordCheck(email: string): Promise<void>;
  /** Records a failed password sign-in for `email`. */
  passwordFailed(email: string): void;
}

export function createAuthRateLimiter(limits: AuthRateLimits, clock: RateLimitClock = systemClock): AuthRateLimiter {
  const windows = createFixedWindows(clock);
  const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
  return {
    hit(kind, request) {
      const { count, resetAt } = windows.add(`${kind}:${clientAddressOf(request)}`, WINDOW_MS[kind]);
      if (count <= limits[kind]) return;
      const retryAfter = String(Math.max(1, Math.ceil((resetAt - clock.now()) / 1000)));
      throw kind === 'emailSent'
        ? new AuthError(
            429,
            'over_email_send_rate_limit',
            'email rate limit exceeded',
            {},
            { 'retry-after': retryAfter },
          )
        : new AuthError(
            429,
            'over_request_rate_limit',
            'Request rate limit reached',
            {},
            { 'retry-after': retryAfter },
          );
    },
    async beforePasswordCheck(email) {
      const delay = progressiveDelay(windows.count(accountKey(email)), limits.accountFailuresBeforeDelay);
      if (delay > 0) await clock.sleep(delay);
    },
    passwordFailed(email) {
      windows.add(accountKey(email), ACCOUNT_WINDOW_MS);
    },
  };
}

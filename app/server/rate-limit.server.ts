/**
 * A fixed-window rate limiter kept in process memory. Enough for one app server; several
 * servers behind a load balancer each keep their own count (documented in the README).
 */
export interface RateLimit {
  /** Records an attempt for each key; false when any key is over its limit. */
  consume(keys: string[]): { allowed: boolean; retryAfterSeconds: number };
}

export function createRateLimit({ limit, windowMs }: { limit: number; windowMs: number }): RateLimit {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    consume(keys) {
      const now = Date.now();
      if (windows.size > 50_000) {
        for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
      }
      let retryAfterMs = 0;
      for (const key of keys) {
        let window = windows.get(key);
        if (!window || window.resetAt <= now) {
          window = { count: 0, resetAt: now + windowMs };
          windows.set(key, window);
        }
        window.count += 1;
        if (window.count > limit) retryAfterMs = Math.max(retryAfterMs, window.resetAt - now);
      }
      return { allowed: retryAfterMs === 0, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
    },
  };
}

/**
 * Sign-in, sign-up and password reset: 10 attempts a minute per client address and per email
 * address (AUTH_RATE_LIMIT_PER_IP / AUTH_RATE_LIMIT_PER_EMAIL override them, e.g. for tests
 * that sign in many times from one address).
 */
const perMinute = (value: string | undefined) => (value && Number(value) > 0 ? Number(value) : 10);
export const authRateLimitByAddress = createRateLimit({
  limit: perMinute(process.env.AUTH_RATE_LIMIT_PER_IP),
  windowMs: 60_000,
});
export const authRateLimitByEmail = createRateLimit({
  limit: perMinute(process.env.AUTH_RATE_LIMIT_PER_EMAIL),
  windowMs: 60_000,
});

export const RATE_LIMIT_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

/**
 * Newsletter sign-ups: 5 a minute per client address (NEWSLETTER_RATE_LIMIT_PER_IP overrides it,
 * e.g. for end-to-end tests that share one address). The action writes with the service role,
 * so this limit, not row-level security, is what stops one client from filling the table.
 */
export const newsletterRateLimitByAddress = createRateLimit({
  limit: Number(process.env.NEWSLETTER_RATE_LIMIT_PER_IP) > 0 ? Number(process.env.NEWSLETTER_RATE_LIMIT_PER_IP) : 5,
  windowMs: 60_000,
});

/**
 * Rate limits of the embedded Auth, over HTTP with real client
 * addresses (127.0.0.x): every limited endpoint answers GoTrue's 429 past its limit, counted per
 * address, and failed guesses on someone's account slow that account down without locking its
 * owner out. The limiter's clock is fake, so delays are recorded instead of waited.
 */
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_DELAY_MS, MAX_DELAY_MS } from '../../packages/supabase-embedded/src/auth/rate-limit';
import type { RateLimitClock } from '@agentmarket/supabase-embedded';
import { uniqueEmail } from '../support/auth-helpers';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { fetchFrom } from '../support/fetch-from';

/** A clock that stands still and records the delays it is asked to wait. */
function fakeClock() {
  const slept: number[] = [];
  const start = Date.now();
  const clock: RateLimitClock = {
    now: () => start,
    sleep: async (ms) => {
      slept.push(ms);
    },
  };
  return { clock, slept };
}

class NoRealtime {
  constructor() {
    throw new Error('realtime disabled in tests');
  }
}

/** A raw Auth request from `address`, with the legacy error shape (no API version header). */
function authFrom(target: ContractTarget, address: string, path: string, body?: unknown, bearer?: string) {
  const headers: Record<string, string> = { apikey: target.anonKey, 'content-type': 'application/json' };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  return fetchFrom(address)(`${target.url}/auth/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const wrongPassword = (email: string) => ({ email, password: 'not-the-password' });

describe.skipIf(isHostedTarget)('embedded Auth rate limits (config.toml [auth.rate_limit])', () => {
  let target: ContractTarget;
  const { clock, slept } = fakeClock();

  beforeAll(async () => {
    // The project's own limits: sign_in_sign_ups = 30 per 5 minutes per address.
    target = await startContractTarget({ seed: true, realRateLimits: true, clock });
  });
  afterAll(() => target?.close());

  it('answers 429 in GoTrue’s shape after 30 wrong passwords from one address, out of 300', async () => {
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 300; attempt++) {
      const response = await authFrom(
        target,
        '127.0.0.10',
        '/token?grant_type=password',
        wrongPassword('buyer@demo.test'),
      );
      statuses.push(response.status);
      if (response.status === 429) refused ??= response;
      else await response.body?.cancel();
    }
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(30).every((status) => status === 429)).toBe(true);
    expect(await refused!.json()).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    });
    expect(refused!.headers.get('x-sb-error-code')).toBe('over_request_rate_limit');
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);

    // supabase-js sees the versioned shape and its error code.
    const client = createClient(target.url, target.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { fetch: fetchFrom('127.0.0.10') },
      realtime: { transport: NoRealtime as never },
    });
    const { error } = await client.auth.signInWithPassword({ email: 'buyer@demo.test', password: 'demo-password' });
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });

    // Counted per address: another one is still answered.
    const other = await authFrom(target, '127.0.0.11', '/token?grant_type=password', wrongPassword('buyer@demo.test'));
    expect(other.status).toBe(400);
  });

  it('lets the owner in from their own address after an attacker failed on their account', async () => {
    const victim = 'seller@demo.test';
    slept.length = 0;
    // The attacker spends the whole budget of their address on the victim's account…
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 35; attempt++) {
      const response = await authFrom(target, '127.0.0.20', '/token?grant_type=password', wrongPassword(victim));
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(30).every((status) => status === 429)).toBe(true);
    // …and from the 11th failure on, each attempt on that account waited longer (not refused).
    expect(slept.slice(0, 5)).toEqual([1, 2, 4, 8, 16].map((factor) => factor * FIRST_DELAY_MS));
    expect(slept.at(-1)).toBe(MAX_DELAY_MS);

    // Even the right password is refused from the attacker's address…
    const attacker = await authFrom(target, '127.0.0.20', '/token?grant_type=password', {
      email: victim,
      password: 'demo-password',
    });
    expect(attacker.status).toBe(429);

    // …while the owner, from another address, signs in with a real client (after the delay).
    const owner = createClient(target.url, target.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { fetch: fetchFrom('127.0.0.21') },
      realtime: { transport: NoRealtime as never },
    });
    const before = slept.length;
    const { data, error } = await owner.auth.signInWithPassword({ email: victim, password: 'demo-password' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(victim);
    expect(slept.slice(before)).toEqual([MAX_DELAY_MS]);
  });
});

describe.skipIf(isHostedTarget)('every limited Auth endpoint answers 429 past its limit', () => {
  const LIMIT = 3;
  let target: ContractTarget;
  let next = 30;
  /** A fresh client address for each case, so the buckets the cases share do not interfere. */
  const freshAddress = () => `127.0.1.${next++}`;

  beforeAll(async () => {
    target = await startContractTarget({
      seed: true,
      realRateLimits: true,
      auth: {
        rateLimits: {
          signInSignUps: LIMIT,
          tokenRefresh: LIMIT,
          tokenVerifications: LIMIT,
          emailSent: LIMIT,
          anonymousUsers: LIMIT,
        },
      },
    });
  });

  async function freshAccountToken(): Promise<string> {
    const email = uniqueEmail('mfa-limit');
    const created = await fetch(`${target.url}/auth/v1/admin/users`, {
      method: 'POST',
      headers: { apikey: target.serviceRoleKey, authorization: `Bearer ${target.serviceRoleKey}` },
      body: JSON.stringify({ email, password: 'demo-password', email_confirm: true }),
    });
    expect(created.status).toBe(200);
    const response = await authFrom(target, freshAddress(), '/token?grant_type=password', {
      email,
      password: 'demo-password',
    });
    return ((await response.json()) as { access_token: string }).access_token;
  }
  afterAll(() => target?.close());

  const factor = '00000000-0000-4000-8000-000000000000';
  const cases: Array<{
    name: string;
    path: string;
    body?: () => unknown;
    bearer?: boolean;
    code: 'over_request_rate_limit' | 'over_email_send_rate_limit';
  }> = [
    {
      name: 'password grant',
      path: '/token?grant_type=password',
      body: () => wrongPassword(uniqueEmail('p')),
      code: 'over_request_rate_limit',
    },
    {
      name: 'PKCE grant',
      path: '/token?grant_type=pkce',
      body: () => ({ auth_code: crypto.randomUUID(), code_verifier: 'x'.repeat(43) }),
      code: 'over_request_rate_limit',
    },
    { name: 'ID-token grant', path: '/token?grant_type=id_token', body: () => ({}), code: 'over_request_rate_limit' },
    {
      name: 'refresh-token grant',
      path: '/token?grant_type=refresh_token',
      body: () => ({ refresh_token: 'not-a-token' }),
      code: 'over_request_rate_limit',
    },
    {
      name: 'sign-up',
      path: '/signup',
      body: () => ({ email: uniqueEmail('s'), password: 'long-enough' }),
      code: 'over_request_rate_limit',
    },
    { name: 'anonymous sign-in', path: '/signup', body: () => ({}), code: 'over_request_rate_limit' },
    { name: '/otp', path: '/otp', body: () => ({ email: uniqueEmail('o') }), code: 'over_email_send_rate_limit' },
    {
      name: '/magiclink',
      path: '/magiclink',
      body: () => ({ email: uniqueEmail('m') }),
      code: 'over_email_send_rate_limit',
    },
    {
      name: '/recover',
      path: '/recover',
      body: () => ({ email: uniqueEmail('r') }),
      code: 'over_email_send_rate_limit',
    },
    {
      name: '/resend',
      path: '/resend',
      body: () => ({ type: 'signup', email: uniqueEmail('e') }),
      code: 'over_email_send_rate_limit',
    },
    {
      name: 'POST /verify',
      path: '/verify',
      body: () => ({ type: 'signup', token_hash: 'f'.repeat(56) }),
      code: 'over_request_rate_limit',
    },
    { name: 'GET /verify', path: `/verify?type=signup&token=${'f'.repeat(56)}`, code: 'over_request_rate_limit' },
    {
      name: 'MFA challenge',
      path: `/factors/${factor}/challenge`,
      body: () => ({}),
      bearer: true,
      code: 'over_request_rate_limit',
    },
    {
      name: 'MFA verify',
      path: `/factors/${factor}/verify`,
      body: () => ({ challenge_id: factor, code: '000000' }),
      bearer: true,
      code: 'over_request_rate_limit',
    },
  ];

  it.each(cases)('$name', async ({ path, body, bearer, code }) => {
    const address = freshAddress();
    // MFA requests count per account as well: each such case signs in an account of its own.
    const token = bearer ? await freshAccountToken() : undefined;
    const send = () => authFrom(target, address, path, body?.(), token);
    for (let attempt = 0; attempt < LIMIT; attempt++) {
      const response = await send();
      expect(response.status).not.toBe(429);
      expect(response.status).toBeLessThan(500);
      await response.body?.cancel();
    }
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 429, error_code: code });
  });

  it('counts the connection’s address: a forged address header does not move a request to another count', async () => {
    const address = freshAddress();
    const attempt = (forged: string) =>
      fetchFrom(address)(`${target.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: {
          apikey: target.anonKey,
          'content-type': 'application/json',
          'x-embedded-client-address': forged,
          'x-forwarded-for': forged,
        },
        body: JSON.stringify(wrongPassword(uniqueEmail('f'))),
      });
    for (let sent = 0; sent < LIMIT; sent++) expect((await attempt(`10.0.0.${sent}`)).status).toBe(400);
    expect((await attempt('10.0.0.99')).status).toBe(429);
  });

  it('sends a confirmation-mailing sign-up through the email budget too', async () => {
    const mailing = await startContractTarget({
      seed: false,
      realRateLimits: true,
      auth: { enableConfirmations: true, rateLimits: { emailSent: 1, signInSignUps: 100 } },
    });
    try {
      const signUp = () =>
        authFrom(mailing, '127.0.2.1', '/signup', { email: uniqueEmail('c'), password: 'long-enough' });
      expect((await signUp()).status).toBe(200);
      const refused = await signUp();
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({
        error_code: 'over_email_send_rate_limit',
        msg: 'email rate limit exceeded',
      });
    } finally {
      await mailing.close();
    }
  });
});

/**
 * Auth contract, email and browser flows (MFA): confirmation
 * emails through the local outbox, PKCE links and code exchange, recovery, OTP, the local Google
 * page, and TOTP — with the real supabase-js and @supabase/ssr clients over HTTP.
 */
import { createHmac } from 'node:crypto';
import { AuthApiError, AuthPKCECodeVerifierMissingError, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrCodeSvg } from '../../packages/supabase-embedded/src/auth/mfa';
import type { OutboxEmail } from '@agentmarket/supabase-embedded';
import { authFetch, lastEmail as lastEmailTo, uniqueEmail } from '../support/auth-helpers';
import { anonClient, serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { CookieJar, ssrClient } from '../support/ssr-client';

let target: ContractTarget;
let disabled: ContractTarget;

beforeAll(async () => {
  [target, disabled] = await Promise.all([
    startContractTarget({
      auth: { enableConfirmations: true, emailMaxFrequency: 60, refreshTokenReuseInterval: 0 },
      devTools: true, // the outbox page and the stand-in Google page are development tools
    }),
    startContractTarget({ seed: false, auth: { enableSignup: false, googleEnabled: false } }),
  ]);
});
afterAll(async () => {
  await target?.close();
  await disabled?.close();
});

const callbackUrl = () => `${target.url}/auth/callback`;

const lastEmail = (to: string) => lastEmailTo(target, to);

async function confirmedUser(prefix: string, password = 'correct-horse') {
  const email = uniqueEmail(prefix);
  const { data, error } = await serviceClient(target).auth.admin.createUser({ email, password, email_confirm: true });
  expect(error).toBeNull();
  return { email, id: data.user!.id };
}

function verifierCookie(jar: CookieJar): string {
  const entry = [...jar.cookies].find(([name]) => /-auth-token-code-verifier$/.test(name));
  if (!entry) throw new Error('no verifier cookie');
  const raw = entry[1].startsWith('base64-') ? Buffer.from(entry[1].slice(7), 'base64url').toString() : entry[1];
  return JSON.parse(raw) as string;
}

describe.skipIf(isHostedTarget)('sign-up with email confirmation', () => {
  it('creates a pending user, mails a PKCE link, and the link confirms through ?code=', async () => {
    const { client, jar } = ssrClient(target);
    const address = `Ada-${crypto.randomUUID().slice(0, 6)}@Example.com`;
    const { data, error } = await client.auth.signUp({
      email: address,
      password: 'correct-horse',
      options: { data: { display_name: 'Ada' }, emailRedirectTo: callbackUrl() },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    const user = data.user!;
    expect(user.email).toBe(address.toLowerCase());
    expect(user.identities).toHaveLength(1);
    expect(user.user_metadata).toMatchObject({ display_name: 'Ada', email_verified: false });
    expect(user.confirmation_sent_at).toBeTruthy();
    expect(user.email_confirmed_at).toBeUndefined();
    expect([...jar.cookies.keys()].every((name) => name.includes('code-verifier'))).toBe(true);

    const again = await anonClient(target).auth.signUp({ email: address, password: 'correct-horse' });
    expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(again.error?.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);

    const unconfirmed = await anonClient(target).auth.signInWithPassword({ email: address, password: 'correct-horse' });
    expect(unconfirmed.error).toMatchObject({
      status: 400,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });
    const wrong = await anonClient(target).auth.signInWithPassword({ email: address, password: 'wrong-horse' });
    expect(wrong.error?.code).toBe('invalid_credentials');

    const mail = await lastEmail(address);
    expect(mail.type).toBe('signup');
    expect(mail.tokenHash.startsWith('pkce_')).toBe(true);
    expect(mail.link).toContain(`${target.url}/auth/v1/verify?token=pkce_`);
    const verifier = verifierCookie(jar);

    const click = await fetch(mail.link, { redirect: 'manual' });
    expect(click.status).toBe(303);
    const location = new URL(click.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(callbackUrl());
    const code = location.searchParams.get('code')!;
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const exchanged = await ssrClient(target, jar).client.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email_confirmed_at).toBeTruthy();
    expect(exchanged.data.user?.user_metadata.email_verified).toBe(true);

    const second = await authFetch(target, '/token?grant_type=pkce', {
      method: 'POST',
      body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
    });
    expect(second.status).toBe(404);
    expect(await second.json()).toEqual({
      code: 'flow_state_not_found',
      message: 'invalid flow state, no valid flow state found',
    });

    const reused = await fetch(mail.link, { redirect: 'manual' });
    expect(reused.status).toBe(303);
    const errorLocation = new URL(reused.headers.get('location')!);
    expect(errorLocation.hash).toContain('error=access_denied');
    expect(errorLocation.hash).toContain('error_code=otp_expired');
    expect(errorLocation.searchParams.get('error_code')).toBe('otp_expired');
  });

  it('answers a fake user for an already confirmed address', async () => {
    const { email, id } = await confirmedUser('known');
    const { data, error } = await anonClient(target).auth.signUp({ email, password: 'correct-horse' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.identities).toEqual([]);
    expect(data.user?.id).not.toBe(id);
  });

  it('verifyOtp with a token hash or the code confirms; bad ones are refused', async () => {
    const email = uniqueEmail('otp-confirm');
    await anonClient(target).auth.signUp({ email, password: 'correct-horse' });
    const mail = await lastEmail(email);
    expect(mail.tokenHash.startsWith('pkce_')).toBe(false);

    const badHash = await anonClient(target).auth.verifyOtp({ type: 'email', token_hash: 'deadbeef' });
    expect(badHash.error).toBeInstanceOf(AuthApiError);
    expect(badHash.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Email link is invalid or has expired',
    });
    const badCode = await anonClient(target).auth.verifyOtp({ email, token: '000000', type: 'email' });
    expect(badCode.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });

    const { data, error } = await anonClient(target).auth.verifyOtp({ type: 'email', token_hash: mail.tokenHash });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.user_metadata.email_verified).toBe(true);

    const other = uniqueEmail('otp-code');
    await anonClient(target).auth.signUp({ email: other, password: 'correct-horse' });
    const byCode = await anonClient(target).auth.verifyOtp({
      email: other,
      token: (await lastEmail(other)).otp,
      type: 'signup',
    });
    expect(byCode.error).toBeNull();
    expect(byCode.data.user?.email).toBe(other);
  });
  it('an implicit-flow link puts the tokens in the fragment', async () => {
    const email = uniqueEmail('implicit');
    await anonClient(target).auth.signUp({
      email,
      password: 'correct-horse',
      options: { emailRedirectTo: callbackUrl() },
    });
    const click = await fetch((await lastEmail(email)).link, { redirect: 'manual' });
    expect(click.status).toBe(303);
    const fragment = new URLSearchParams(new URL(click.headers.get('location')!).hash.slice(1));
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('type')).toBe('signup');
    const { data } = await anonClient(target).auth.getUser(fragment.get('access_token')!);
    expect(data.user?.email_confirmed_at).toBeTruthy();
  });

  it('an email change waits for the link sent to the new address', async () => {
    const { email } = await confirmedUser('mover');
    const client = anonClient(target);
    await client.auth.signInWithPassword({ email, password: 'correct-horse' });
    const newEmail = uniqueEmail('moved');
    const { data, error } = await client.auth.updateUser({ email: newEmail });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.new_email).toBe(newEmail);
    const mail = await lastEmail(newEmail);
    expect(mail.type).toBe('email_change');
    const verified = await anonClient(target).auth.verifyOtp({ type: 'email_change', token_hash: mail.tokenHash });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(newEmail);
    expect(verified.data.user?.new_email).toBeUndefined();
    const taken = await client.auth.updateUser({ email: (await confirmedUser('taken')).email });
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
  });
});

describe.skipIf(isHostedTarget)('password recovery', () => {
  it('mails a PKCE recovery hash; verifyOtp signs in with PASSWORD_RECOVERY; the new password works', async () => {
    const { email } = await confirmedUser('recover');
    const start = ssrClient(target);
    expect(await start.client.auth.resetPasswordForEmail(email, { redirectTo: callbackUrl() })).toEqual({
      data: {},
      error: null,
    });
    expect(await start.client.auth.resetPasswordForEmail(uniqueEmail('nobody'), { redirectTo: callbackUrl() })).toEqual(
      { data: {}, error: null },
    );
    const mail = await lastEmail(email);
    expect(mail.type).toBe('recovery');
    expect(mail.tokenHash.startsWith('pkce_')).toBe(true);

    const again = await start.client.auth.resetPasswordForEmail(email, { redirectTo: callbackUrl() });
    expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });

    const { client, jar } = ssrClient(target);
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    const verified = await client.auth.verifyOtp({ type: 'recovery', token_hash: mail.tokenHash });
    expect(verified.error).toBeNull();
    expect(events).toContain('PASSWORD_RECOVERY');
    expect([...jar.cookies.keys()].some((name) => /-auth-token(\.0)?$/.test(name))).toBe(true);
    expect((await client.auth.updateUser({ password: 'new-password-1' })).error).toBeNull();
    expect((await anonClient(target).auth.signInWithPassword({ email, password: 'new-password-1' })).error).toBeNull();
    expect((await anonClient(target).auth.signInWithPassword({ email, password: 'correct-horse' })).error?.code).toBe(
      'invalid_credentials',
    );
  });

  it('the recovery link of a PKCE flow leads to ?code= and exchangeCodeForSession', async () => {
    const { email, id } = await confirmedUser('recover-link');
    const { client, jar } = ssrClient(target);
    await client.auth.resetPasswordForEmail(email, { redirectTo: callbackUrl() });
    const click = await fetch((await lastEmail(email)).link, { redirect: 'manual' });
    const code = new URL(click.headers.get('location')!).searchParams.get('code')!;
    const events: string[] = [];
    const next = ssrClient(target, jar).client;
    next.auth.onAuthStateChange((event) => events.push(event));
    const { data, error } = await next.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.id).toBe(id);
    expect(events).toContain('PASSWORD_RECOVERY');
  });
});

describe.skipIf(isHostedTarget)('OTP and resend', () => {
  it('refuses unknown users without shouldCreateUser; resend is silent; magic links sign in', async () => {
    const refused = await anonClient(target).auth.signInWithOtp({
      email: uniqueEmail('new'),
      options: { shouldCreateUser: false },
    });
    expect(refused.error).toMatchObject({ status: 422, code: 'otp_disabled', message: 'Signups not allowed for otp' });
    const { email } = await confirmedUser('magic');
    for (const address of [email, uniqueEmail('ghost')]) {
      const resent = await anonClient(target).auth.resend({ type: 'signup', email: address });
      expect(resent).toEqual({ data: { user: null, session: null }, error: null });
    }
    expect((await anonClient(target).auth.signInWithOtp({ email })).error).toBeNull();
    const mail = await lastEmail(email);
    expect(mail.type).toBe('magiclink');
    const { data, error } = await anonClient(target).auth.verifyOtp({ email, token: mail.otp, type: 'email' });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
  });

  it('the outbox page lists the emails without scripts', async () => {
    const page = await fetch(`${target.url}/auth/v1/_local/outbox`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/auth/v1/verify?token=');
    expect(html).not.toContain('<script');
    const json = (await (await fetch(`${target.url}/auth/v1/_local/outbox.json`)).json()) as { emails: OutboxEmail[] };
    expect(json.emails.length).toBeGreaterThan(0);
  });
});

describe.skipIf(isHostedTarget)('Google through the local sign-in page (development tools)', () => {
  /** A browser's cookie for the stand-in page (the accounts it created there). */
  interface Browser {
    cookie: string;
  }
  const newBrowser = (): Browser => ({ cookie: '' });

  async function openGooglePage(jar: CookieJar, browser: Browser) {
    const { client, requests } = ssrClient(target, jar);
    const { data, error } = await client.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: callbackUrl(), queryParams: { access_type: 'offline', prompt: 'consent' } },
    });
    expect(error).toBeNull();
    expect(requests).toEqual([]);
    const authorize = new URL(data.url!);
    expect(authorize.pathname).toBe('/auth/v1/authorize');
    expect(authorize.searchParams.get('code_challenge')).toHaveLength(43);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('s256');
    const toPage = await fetch(data.url!, { redirect: 'manual' });
    expect(toPage.status).toBe(302);
    const pageUrl = new URL(toPage.headers.get('location')!);
    expect(pageUrl.searchParams.get('prompt')).toBe('consent');
    const page = await fetch(pageUrl, { headers: { cookie: browser.cookie } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<form method="post"');
    expect(html).not.toContain('<script');
    return { state: pageUrl.searchParams.get('state')!, html };
  }

  async function submitGooglePage(browser: Browser, state: string, form: Record<string, string>) {
    const submitted = await fetch(new URL('/auth/v1/_local/google', target.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.cookie },
      body: new URLSearchParams({ state, ...form }),
      redirect: 'manual',
    });
    const setCookie = submitted.headers.get('set-cookie');
    if (setCookie) browser.cookie = setCookie.split(';')[0]!;
    return submitted;
  }

  async function googleSignIn(jar: CookieJar, form: Record<string, string>, browser = newBrowser()) {
    const { state } = await openGooglePage(jar, browser);
    const submitted = await submitGooglePage(browser, state, form);
    expect(submitted.status).toBe(302);
    const back = new URL(submitted.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(callbackUrl());
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^[0-9a-f-]{36}$/);
    const events: string[] = [];
    const exchange = ssrClient(target, jar).client;
    exchange.auth.onAuthStateChange((event) => events.push(event));
    const result = await exchange.auth.exchangeCodeForSession(code);
    expect(result.error).toBeNull();
    expect(events).toContain('SIGNED_IN');
    return result.data;
  }

  async function providersOf(email: string) {
    const rows = await target.backend!.db.query<{ provider: string }>(
      `select i.provider from auth.identities i join auth.users u on u.id = i.user_id
        where u.email = lower($1) order by i.provider`,
      [email],
    );
    return rows.rows.map((row) => row.provider);
  }

  it('creates a Google user and signs the same browser in to it again', async () => {
    const jar = new CookieJar();
    const browser = newBrowser();
    const email = uniqueEmail('grace');
    const first = await googleSignIn(jar, { intent: 'new', email, name: 'Grace Hopper' }, browser);
    const user = first.user!;
    expect(user.app_metadata).toMatchObject({ provider: 'google', providers: ['google'] });
    expect(user.identities?.[0]?.provider).toBe('google');
    expect(user.user_metadata).toMatchObject({
      full_name: 'Grace Hopper',
      name: 'Grace Hopper',
      email,
      email_verified: true,
      iss: 'https://www.googleapis.com/userinfo/v2/me',
    });
    expect(user.user_metadata.avatar_url).toBe(user.user_metadata.picture);
    expect(user.email_confirmed_at).toBeTruthy();
    expect(first.session?.provider_token).toBeTruthy();
    expect(first.session?.provider_refresh_token).toBeTruthy();
    expect([...jar.cookies.keys()].some((name) => /-auth-token-code-verifier$/.test(name))).toBe(false);
    const profile = await target.backend!.db.query<{ profile_image_url: string }>(
      'select profile_image_url from public.users where id = $1',
      [user.id],
    );
    // The provider's picture is not kept: a profile picture is an upload of the account's own.
    expect(profile.rows[0]?.profile_image_url).toBeNull();
    const avatar = await fetch(new URL(String(user.user_metadata.avatar_url), target.url)); // a same-origin path
    expect(avatar.headers.get('content-type')).toBe('image/svg+xml');

    const { html } = await openGooglePage(new CookieJar(), browser);
    expect(html).toContain(email);
    const again = await googleSignIn(
      new CookieJar(),
      { intent: 'existing', subject: user.identities![0]!.id },
      browser,
    );
    expect(again.user?.id).toBe(user.id);
    const sameEmail = await googleSignIn(new CookieJar(), { intent: 'new', email, name: 'Grace' }, browser);
    expect(sameEmail.user?.id).toBe(user.id);
  });

  it('never signs in to an existing password account', async () => {
    const password = await confirmedUser('linked');
    for (const email of ['admin@demo.test', 'ADMIN@demo.test', password.email]) {
      expect(await providersOf(email)).toEqual(['email']);
      const browser = newBrowser();
      const { state } = await openGooglePage(new CookieJar(), browser);
      const refused = await submitGooglePage(browser, state, { intent: 'new', email, name: 'Mallory' });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('location')).toBeNull();
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(await refused.text()).toContain('An account with this email already exists.');
      expect(await providersOf(email)).toEqual(['email']);
      // No code was issued for the flow, so nothing can be exchanged for a session.
      const flow = await target.backend!.db.query<{ auth_code_issued_at: Date | null; user_id: string | null }>(
        'select auth_code_issued_at, user_id from auth.flow_state where id = $1',
        [state],
      );
      expect(flow.rows[0]).toEqual({ auth_code_issued_at: null, user_id: null });
    }
  });

  it('does not show or sign in to the accounts another browser created', async () => {
    const alice = newBrowser();
    const email = uniqueEmail('alice');
    const created = await googleSignIn(new CookieJar(), { intent: 'new', email, name: 'Alice' }, alice);
    const subject = created.user!.identities![0]!.id;

    const mallory = newBrowser();
    const { state, html } = await openGooglePage(new CookieJar(), mallory);
    expect(html).not.toContain(email);
    expect(html).not.toContain('Choose an account');
    const bySubject = await submitGooglePage(mallory, state, { intent: 'existing', subject });
    expect(bySubject.status).toBe(302);
    const back = new URL(bySubject.headers.get('location')!);
    expect(back.searchParams.get('error_code')).toBe('bad_oauth_callback');
    expect(back.searchParams.get('code')).toBeNull();

    const second = await openGooglePage(new CookieJar(), mallory);
    const byEmail = await submitGooglePage(mallory, second.state, { intent: 'new', email, name: 'Mallory' });
    expect(byEmail.status).toBe(400);
    expect(byEmail.headers.get('location')).toBeNull();

    // A cookie not signed by the backend counts as no cookie.
    const payload = Buffer.from(JSON.stringify([subject])).toString('base64url');
    const forged = { cookie: `sb-local-google-accounts=${payload}.${'A'.repeat(43)}` };
    const third = await openGooglePage(new CookieJar(), forged);
    expect(third.html).not.toContain(email);
    const byForgedCookie = await submitGooglePage(forged, third.state, { intent: 'existing', subject });
    expect(new URL(byForgedCookie.headers.get('location')!).searchParams.get('code')).toBeNull();
  });

  it('needs the verifier cookie, and an invalid form re-renders the page', async () => {
    const { client, requests } = ssrClient(target);
    const missing = await client.auth.exchangeCodeForSession('x');
    expect(missing.error).toBeInstanceOf(AuthPKCECodeVerifierMissingError);
    expect(requests).toEqual([]);
    const { data } = await client.auth.signInWithOAuth({ provider: 'google', options: { redirectTo: callbackUrl() } });
    const pageUrl = new URL((await fetch(data.url!, { redirect: 'manual' })).headers.get('location')!);
    const invalid = await fetch(new URL('/auth/v1/_local/google', target.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state: pageUrl.searchParams.get('state')!, intent: 'new', email: 'nope', name: 'X' }),
      redirect: 'manual',
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain('invalid format');
    const expired = await fetch(`${target.url}/auth/v1/_local/google?state=${crypto.randomUUID()}`);
    expect(expired.status).toBe(400);
  });
});

function totp(secret: string, at = Date.now() / 1000): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30)));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0xf;
  return ((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, '0');
}

describe('TOTP multi-factor authentication', () => {
  it('enrols, challenges, verifies to aal2 and unenrols', async () => {
    const { email } = await confirmedUser('mfa');
    const client: SupabaseClient = anonClient(target);
    await client.auth.signInWithPassword({ email, password: 'correct-horse' });
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(enrolled.error).toBeNull();
    const factor = enrolled.data!;
    expect(factor.type).toBe('totp');
    expect(factor.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(factor.totp.uri).toMatch(/^otpauth:\/\/totp\//);
    if (!isHostedTarget) {
      // A scannable code of exactly the URI returned beside it, not a picture of text.
      const svg = factor.totp.qr_code.slice('data:image/svg+xml;utf-8,'.length);
      expect(svg).not.toContain('<text');
      expect(svg).toBe(qrCodeSvg(factor.totp.uri));
    }

    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    const wrong = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: '000000' === totp(factor.totp.secret) ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const verified = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: totp(factor.totp.secret),
    });
    expect(verified.error).toBeNull();
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(
      aal.data?.currentAuthenticationMethods.map((entry) => (typeof entry === 'string' ? entry : entry.method)),
    ).toEqual(expect.arrayContaining(['password', 'totp']));
    const factors = await client.auth.mfa.listFactors();
    expect(factors.data?.totp.map((entry) => entry.id)).toEqual([factor.id]);

    const fresh = anonClient(target);
    await fresh.auth.signInWithPassword({ email, password: 'correct-horse' });
    expect((await fresh.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal2',
    });
    const refusedUnenrol = await fresh.auth.mfa.unenroll({ factorId: factor.id });
    expect(refusedUnenrol.error).toMatchObject({ status: 422, code: 'insufficient_aal' });

    expect((await client.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull();
    expect((await client.auth.mfa.listFactors()).data?.all).toEqual([]);
  });

  it('ends aal1 sessions on verification, asks aal2 to enrol more, and downgrades on unenrolment (as GoTrue)', async () => {
    const { email } = await confirmedUser('mfa-aal');
    const client = anonClient(target);
    await client.auth.signInWithPassword({ email, password: 'correct-horse' });
    const other = anonClient(target);
    await other.auth.signInWithPassword({ email, password: 'correct-horse' });
    const abandoned = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Old phone' });
    const factor = (await client.auth.mfa.enroll({ factorType: 'totp' })).data!;
    const challenge = (await client.auth.mfa.challenge({ factorId: factor.id })).data!;
    const empty = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: '' });
    expect(empty.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(
      (await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: totp(factor.totp.secret) }))
        .error,
    ).toBeNull();

    // The other session was still aal1: it is gone, and so is the factor never verified.
    const { error: gone } = await other.auth.refreshSession();
    expect(gone).toMatchObject({ status: 400 });
    const all = (await client.auth.mfa.listFactors()).data!.all;
    expect(all.map((entry) => entry.id)).toEqual([factor.id]);
    expect(all.map((entry) => entry.id)).not.toContain(abandoned.data!.id);

    const fresh = anonClient(target);
    await fresh.auth.signInWithPassword({ email, password: 'correct-horse' });
    const refusedEnrol = await fresh.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Tablet' });
    expect(refusedEnrol.error).toMatchObject({ status: 403, code: 'insufficient_aal' });

    expect((await client.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull();
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal1',
    });
  });
});

describe.skipIf(isHostedTarget)('switched-off settings', () => {
  it('refuses sign-ups and a disabled provider', async () => {
    const { error } = await anonClient(disabled).auth.signUp({
      email: uniqueEmail('closed'),
      password: 'correct-horse',
    });
    expect(error).toMatchObject({
      status: 422,
      code: 'signup_disabled',
      message: 'Signups not allowed for this instance',
    });
    const authorize = await fetch(
      `${disabled.url}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(disabled.url)}`,
      { redirect: 'manual' },
    );
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toMatchObject({
      msg: 'Unsupported provider: provider is not enabled',
      error_code: 'validation_failed',
    });
  });
});

/**
 * Real Google sign-in, end to end against a local OpenID Connect provider
 * (oauth2-mock-server): /auth/v1/authorize → the IdP → /auth/v1/callback → the app's code
 * exchange with supabase-js. The ID token is verified: a wrong audience or nonce is refused.
 */
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/auth-helpers';
import { serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { CookieJar, ssrClient } from '../support/ssr-client';

let idp: OAuth2Server;
let target: ContractTarget;
const CLIENT_ID = 'agentmarket-test.apps.googleusercontent.com';

/** Claims the mock IdP puts in the next ID token (and access token). */
let nextClaims: Record<string, unknown> = {};

beforeAll(async () => {
  if (isHostedTarget) return;
  idp = new OAuth2Server();
  await idp.issuer.keys.generate('RS256');
  await idp.start(0, '127.0.0.1');
  idp.service.on('beforeTokenSigning', (token) => Object.assign(token.payload, nextClaims));
  target = await startContractTarget({
    auth: { googleClient: { clientId: CLIENT_ID, clientSecret: 'test-secret', issuer: idp.issuer.url! } },
  });
});
afterAll(async () => {
  await target?.close();
  await idp?.stop();
});

const callbackUrl = () => `${target.url}/auth/callback`;

/** The browser's trip: app → /authorize → IdP → /callback → the app's callback URL. */
async function throughGoogle(jar: CookieJar, claims: Record<string, unknown>) {
  nextClaims = claims;
  const { client } = ssrClient(target, jar);
  const { data, error } = await client.auth.signInWithOAuth({
    provider: 'google',
    options: { redirectTo: callbackUrl(), skipBrowserRedirect: true },
  });
  expect(error).toBeNull();
  const toIdp = await fetch(data.url!, { redirect: 'manual' });
  expect(toIdp.status).toBe(302);
  const authorization = new URL(toIdp.headers.get('location')!);
  expect(`${authorization.origin}`).toBe(idp.issuer.url);
  expect(authorization.searchParams.get('client_id')).toBe(CLIENT_ID);
  expect(authorization.searchParams.get('redirect_uri')).toBe(`${target.url}/auth/v1/callback`);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('scope')).toBe('openid email profile');
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  const toCallback = await fetch(authorization, { redirect: 'manual' });
  const callback = new URL(toCallback.headers.get('location')!);
  expect(`${callback.origin}${callback.pathname}`).toBe(`${target.url}/auth/v1/callback`);
  const back = await fetch(callback, { redirect: 'manual' });
  expect(back.status).toBe(302);
  return { back: new URL(back.headers.get('location')!), callback };
}

async function signInWithGoogle(claims: Record<string, unknown>) {
  const jar = new CookieJar();
  const { back } = await throughGoogle(jar, claims);
  expect(`${back.origin}${back.pathname}`).toBe(callbackUrl());
  expect(back.searchParams.get('error_description')).toBeNull();
  const result = await ssrClient(target, jar).client.auth.exchangeCodeForSession(back.searchParams.get('code')!);
  expect(result.error).toBeNull();
  return result.data;
}

async function identitiesOf(email: string) {
  const rows = await target.backend!.db.query<{ provider: string; provider_id: string }>(
    `select i.provider, i.provider_id from auth.identities i join auth.users u on u.id = i.user_id
      where u.email = lower($1) order by i.provider`,
    [email],
  );
  return rows.rows;
}

describe.skipIf(isHostedTarget)('Google sign-in through a real OpenID Connect provider', () => {
  it('advertises Google, and the stand-in page does not exist', async () => {
    const settings = await fetch(`${target.url}/auth/v1/settings`, { headers: { apikey: target.anonKey } });
    expect(((await settings.json()) as { external: { google: boolean } }).external.google).toBe(true);
    expect((await fetch(`${target.url}/auth/v1/_local/google`)).status).toBe(404);
  });

  it('creates a user from the verified ID token, and signs the same subject in again', async () => {
    const email = uniqueEmail('oidc');
    const sub = `sub-${crypto.randomUUID()}`;
    const claims = { sub, email, email_verified: true, name: 'Ada Lovelace', picture: 'https://img.example/ada.png' };
    const first = await signInWithGoogle(claims);
    expect(first.user?.email).toBe(email);
    expect(first.user?.app_metadata).toMatchObject({ provider: 'google', providers: ['google'] });
    expect(first.user?.user_metadata).toMatchObject({
      iss: idp.issuer.url,
      sub,
      name: 'Ada Lovelace',
      email_verified: true,
      avatar_url: 'https://img.example/ada.png',
    });
    expect(first.session?.provider_token).toBeTruthy();
    expect(await identitiesOf(email)).toEqual([{ provider: 'google', provider_id: sub }]);
    const again = await signInWithGoogle({ ...claims, name: 'Ada King' });
    expect(again.user?.id).toBe(first.user?.id);
    expect(again.user?.user_metadata.name).toBe('Ada King');
  });

  it('links an existing account only when Google verified the email', async () => {
    const email = uniqueEmail('linked');
    const { data } = await serviceClient(target).auth.admin.createUser({
      email,
      password: 'correct-horse',
      email_confirm: true,
    });
    const unverified = await throughGoogle(new CookieJar(), {
      sub: `sub-${crypto.randomUUID()}`,
      email,
      email_verified: false,
    });
    expect(unverified.back.searchParams.get('code')).toBeNull();
    expect(unverified.back.searchParams.get('error_code')).toBe('email_exists');
    expect(await identitiesOf(email)).toEqual([expect.objectContaining({ provider: 'email' })]);

    const sub = `sub-${crypto.randomUUID()}`;
    const linked = await signInWithGoogle({ sub, email, email_verified: true });
    expect(linked.user?.id).toBe(data.user!.id);
    expect((await identitiesOf(email)).map((row) => row.provider)).toEqual(['email', 'google']);
  });

  it('refuses an ID token for another audience or with another nonce, and a replayed callback', async () => {
    for (const forged of [{ aud: 'someone-else.apps.googleusercontent.com' }, { nonce: 'not-the-one-we-sent' }]) {
      const email = uniqueEmail('forged');
      const { back } = await throughGoogle(new CookieJar(), {
        sub: `sub-${crypto.randomUUID()}`,
        email,
        email_verified: true,
        ...forged,
      });
      expect(`${back.origin}${back.pathname}`).toBe(callbackUrl());
      expect(back.searchParams.get('code')).toBeNull();
      expect(back.searchParams.get('error_code')).toBe('bad_oauth_callback');
      expect(await identitiesOf(email)).toEqual([]);
    }

    const email = uniqueEmail('replay');
    const jar = new CookieJar();
    const { callback } = await throughGoogle(jar, { sub: `sub-${crypto.randomUUID()}`, email, email_verified: true });
    const replay = await fetch(callback, { redirect: 'manual' });
    // The spent flow is unknown now: back to the app's origin, the error in the fragment.
    const back = new URL(replay.headers.get('location')!);
    expect(back.searchParams.get('code')).toBeNull();
    expect(new URLSearchParams(back.hash.slice(1)).get('error_code')).toBe('bad_oauth_callback');
  });

  it('takes the IdP refusal back to the app', async () => {
    const flow = await fetch(
      `${target.url}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(callbackUrl())}`,
      { redirect: 'manual' },
    );
    const state = new URL(flow.headers.get('location')!).searchParams.get('state')!;
    const denied = await fetch(`${target.url}/auth/v1/callback?error=access_denied&state=${state}`, {
      redirect: 'manual',
    });
    const back = new URL(denied.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(callbackUrl());
    expect(new URLSearchParams(back.hash.slice(1)).get('error_code')).toBe('access_denied');
  });
});

describe.skipIf(isHostedTarget)('Google sign-in with an unreachable IdP', () => {
  it('sends the browser back to the app with an error instead of a 500', async () => {
    const down = await startContractTarget({
      seed: false,
      auth: { googleClient: { clientId: CLIENT_ID, clientSecret: 'x', issuer: 'http://127.0.0.1:9/' } },
    });
    try {
      const redirectTo = `${down.url}/auth/callback`;
      const response = await fetch(
        `${down.url}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(redirectTo)}`,
        { redirect: 'manual' },
      );
      expect(response.status).toBe(302);
      const back = new URL(response.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe(redirectTo);
      expect(new URLSearchParams(back.hash.slice(1)).get('error_code')).toBe('provider_unavailable');
    } finally {
      await down.close();
    }
  });
});

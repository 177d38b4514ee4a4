/**
 * The root middleware against the embedded backend (seeded, in memory): the viewer is verified
 * with the Auth service, remembered per access token for a burst of requests, and forgotten on
 * request (sign-out, profile changes). Every request the Supabase clients send is counted.
 */
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port.js';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { ssrClient } from '../../tests/support/ssr-client';
import { connectionContext, viewerContext } from '~/context';
import type { Viewer } from '~/lib/viewer';
import { forgetViewer, supabaseMiddleware } from './viewer.server';

describe.skipIf(isHostedTarget)('viewer middleware', () => {
  let target: ContractTarget;
  const sent: string[] = [];
  const countingFetch: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    return fetch(request);
  };
  const authChecks = () => sent.filter((line) => line === 'GET /auth/v1/user').length;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
  });
  afterAll(() => target?.close());

  async function signedInCookie(email: string): Promise<string> {
    const { client, jar } = ssrClient(target);
    const { error } = await client.auth.signInWithPassword({ email, password: 'demo-password' });
    if (error) throw error;
    return jar
      .getAll()
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
  }

  /** One request through the middleware; resolves with the viewer it stored. */
  async function viewerFor(cookie: string, backendUrl = target.url): Promise<Viewer | null> {
    const context = new RouterContextProvider();
    context.set(connectionContext, { url: backendUrl, anonKey: target.anonKey, fetch: countingFetch });
    const url = new URL('http://app.test/profile');
    const request = new Request(url, { headers: cookie ? { cookie } : {} });
    let viewer: Viewer | null = null;
    await supabaseMiddleware({ request, context, params: {}, url, pattern: '/profile' }, async () => {
      viewer = context.get(viewerContext);
      return new Response('ok');
    });
    return viewer;
  }

  it('verifies a session once for a burst of requests, and again after it is forgotten', async () => {
    const cookie = await signedInCookie('buyer@demo.test');
    sent.length = 0;

    const first = await viewerFor(cookie);
    expect(first).toMatchObject({ username: 'demo_buyer', role: 'buyer' });
    expect(authChecks()).toBe(1);
    expect(sent).toContain('GET /rest/v1/users');

    for (let i = 0; i < 3; i++) expect(await viewerFor(cookie)).toEqual(first);
    expect(authChecks()).toBe(1);

    forgetViewer(first!.id);
    expect(await viewerFor(cookie)).toEqual(first);
    expect(authChecks()).toBe(2);
  });

  it('asks the Auth service nothing without a session, and trusts no forged cookie', async () => {
    sent.length = 0;
    expect(await viewerFor('')).toBeNull();
    expect(sent).toEqual([]);

    const cookie = await signedInCookie('seller@demo.test');
    const [name, value] = cookie.split('; ')[0]!.split(/=(.*)/s) as [string, string];
    // The cookie's payload is base64url JSON: swap the access token for one signed with another key.
    const session = JSON.parse(Buffer.from(value.replace(/^base64-/, ''), 'base64url').toString()) as {
      access_token: string;
    };
    const [header, payload] = session.access_token.split('.');
    session.access_token = `${header}.${payload}.${Buffer.from('forged').toString('base64url')}`;
    const forged = `${name}=base64-${Buffer.from(JSON.stringify(session)).toString('base64url')}`;
    sent.length = 0;
    expect(await viewerFor(forged)).toBeNull();
    expect(authChecks()).toBe(1);
  });

  it('answers 503 instead of signing anyone out when the Auth service cannot be reached', async () => {
    // Same host as the backend (so the same cookie name), on a port where nothing listens.
    const unreachable = target.url.replace(/:\d+$/, `:${await freePort()}`);
    await expect(viewerFor(await signedInCookie('buyer@demo.test'), unreachable)).rejects.toMatchObject({
      init: { status: 503 },
    });
  });
});

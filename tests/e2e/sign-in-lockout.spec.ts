/**
 * Failing on purpose against someone else's email must not lock its owner out.
 * Runs its own production server with the default limits (10 attempts a minute per address and
 * per email from one address, the per-account delay after 10 failures), and posts the sign-in
 * form from two client addresses (127.0.0.1 and 127.0.0.2, both this machine's loopback).
 */
import { DEMO_PASSWORD } from './support/accounts';
import { expect, isJavaScriptProject, test } from './fixtures';
import { fetchFrom } from '../support/fetch-from';
import { killServers, startServer } from './support/server-process';

let origin: string;

test.beforeAll(async () => {
  // Skipped here, before its server starts (a skip in a test would start it for nothing).
  test.skip(!isJavaScriptProject(), 'no browser involved: one run is enough');
  test.setTimeout(180_000); // starting its own production server(s) is slow on a busy machine
  ({ origin } = await startServer('memory'));
});

test.afterAll(() => killServers());

function signIn(fromAddress: string, email: string, password: string) {
  return fetchFrom(fromAddress)(`${origin}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ email, password }).toString(),
  });
}

test('eleven wrong attempts from one address leave the owner free to sign in from theirs', async () => {
  const victim = 'seller@demo.test';

  const attack: number[] = [];
  for (let attempt = 0; attempt < 12; attempt++) {
    const response = await signIn('127.0.0.1', victim, `wrong-guess-${attempt}`);
    attack.push(response.status);
  }
  expect(attack.slice(0, 10)).toEqual(Array(10).fill(400));
  expect(attack.slice(10)).toEqual([429, 429]);

  // The attacker's address stays refused, even with the right password…
  expect((await signIn('127.0.0.1', victim, DEMO_PASSWORD)).status).toBe(429);

  // …while the owner, from another address, is signed in (after a short delay, not refused).
  const owner = await signIn('127.0.0.2', victim, DEMO_PASSWORD);
  expect(owner.status).toBe(303);
  expect(owner.headers.get('location')).toBe('/dashboard');
  const cookies = owner.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
  expect(cookies.some((cookie) => /^sb-.*-auth-token/.test(cookie))).toBe(true);

  // The session works: the dashboard greets the seller.
  const dashboard = await fetchFrom('127.0.0.2')(`${origin}/dashboard`, { headers: { cookie: cookies.join('; ') } });
  expect(dashboard.status).toBe(200);
  expect(await dashboard.text()).toContain('demo_seller');
});

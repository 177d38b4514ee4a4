/**
 * Two rows of `npm run test:reliability`'s table, against the production server with its
 * real limits (README: AUTH_RATE_LIMIT_PER_IP and AUTH_FAILURES_BEFORE_DELAY, 10 each) behind
 * TRUST_PROXY, so each request's client address is the one it forwards:
 * - Rate limits: from one address, the 11th sign-in attempt in a minute is a 429 with Retry-After
 *   while another address is still answered; failed sign-ins on one account count across
 *   addresses (past 10, each further attempt waits before its password is checked), and the owner
 *   still signs in.
 * - Cookies: every cookie the app sets is HttpOnly and SameSite, and Secure when the proxy says
 *   the request came over HTTPS.
 * Runs its own server, in the `js` project only.
 */
import { expect, test } from '@playwright/test';
import { recordTally } from '../../support/security-tally';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../support/accounts';
import { killServers, startServer, type ServerProcess } from '../support/server-process';

/** The first delay of the per-account slow-down (packages/supabase-embedded/src/fixed-window.ts, FIRST_DELAY_MS). */
const FIRST_DELAY_MS = 250;

let server: ServerProcess;

test.beforeAll(async () => {
  test.skip(test.info().project.name !== 'js', 'runs its own server once, in the js project');
  test.setTimeout(180_000);
  server = await startServer('memory', { TRUST_PROXY: 'true', SESSION_SECRET: 'limits-session-secret' });
});
test.afterAll(() => killServers());

/** A form post from `address` (X-Forwarded-For, honoured under TRUST_PROXY), read to its end; with its time. */
async function post(target: string, body: URLSearchParams, address: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const response = await fetch(`${server.origin}${target}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: server.origin,
      'x-forwarded-for': address,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body,
  });
  await response.arrayBuffer();
  return { response, ms: performance.now() - started };
}

const signIn = (address: string, email: string, password: string, headers: Record<string, string> = {}) =>
  post('/auth/sign-in', new URLSearchParams({ email, password, redirectTo: '/dashboard' }), address, headers);

test('rate limits: 429 with Retry-After from one address; failures on one account count across addresses', async () => {
  test.skip(test.info().project.name !== 'js', 'runs its own server once, in the js project');
  test.setTimeout(180_000);
  const failures: string[] = [];
  let cases = 0;

  // One address, eleven attempts with wrong passwords on eleven unknown emails.
  for (let attempt = 1; attempt <= 11; attempt++) {
    cases++;
    const { response } = await signIn('203.0.113.7', `nobody-${attempt}@example.com`, 'wrong-password');
    const retryAfter = Number(response.headers.get('retry-after'));
    if (attempt <= 10 && response.status !== 400)
      failures.push(`attempt ${attempt} from one address → ${response.status}`);
    if (attempt === 11 && (response.status !== 429 || !(retryAfter > 0)))
      failures.push(`the 11th attempt → ${response.status}, Retry-After ${response.headers.get('retry-after')}`);
  }
  // Another address is counted on its own.
  cases++;
  const other = await signIn('203.0.113.8', 'nobody-else@example.com', 'wrong-password');
  if (other.response.status !== 400) failures.push(`another address after the limit → ${other.response.status}`);

  // One account, one wrong attempt from each of twelve addresses: past ten failures the next wait.
  const victim = DEMO_ACCOUNTS.seller.email;
  for (let attempt = 1; attempt <= 12; attempt++) {
    cases++;
    const { response, ms } = await signIn(`198.51.100.${attempt}`, victim, 'wrong-password');
    if (response.status !== 400) failures.push(`wrong password ${attempt} on one account → ${response.status}`);
    if (attempt > 10 && ms < FIRST_DELAY_MS)
      failures.push(`failure ${attempt} on one account from a new address answered in ${Math.round(ms)} ms, undelayed`);
  }
  // The owner, from their own address, still gets in (delayed, never locked out).
  cases++;
  const owner = await signIn('192.0.2.10', victim, DEMO_PASSWORD);
  if (owner.response.status !== 303) failures.push(`the owner's right password → ${owner.response.status}`);

  recordTally({
    check: 'Rate limits',
    counts:
      '11th sign-in from one address not 429 + Retry-After, other address refused, account failures not counted across addresses',
    cases,
    failures,
  });
  expect(failures).toEqual([]);
});

test('cookies: HttpOnly and SameSite on every cookie the app sets; Secure behind an HTTPS proxy', async () => {
  test.skip(test.info().project.name !== 'js', 'runs its own server once, in the js project');
  const failures: string[] = [];
  let cases = 0;
  for (const [label, headers] of [
    ['over HTTP', {}],
    // The browser's origin is the proxy's HTTPS one (else the cross-site check refuses the post).
    ['behind an HTTPS proxy', { 'x-forwarded-proto': 'https', origin: server.origin.replace('http:', 'https:') }],
  ] as const) {
    const secure = label !== 'over HTTP';
    const address = secure ? '192.0.2.21' : '192.0.2.20';
    // A sign-in (session cookies, the flash), a theme change (its cookie), a wrong sign-in (flash or form state).
    const signedIn = await signIn(address, DEMO_ACCOUNTS.buyer.email, DEMO_PASSWORD, headers);
    const session = signedIn.response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]!)
      .join('; ');
    const withSession = { cookie: session, ...headers };
    const theme = (
      await post('/resources/theme', new URLSearchParams({ theme: 'dark', redirectTo: '/' }), address, withSession)
    ).response;
    const signedOut = (await post('/auth/sign-out', new URLSearchParams(), address, withSession)).response;
    const lines = [signedIn.response, theme, signedOut].flatMap((response) => response.headers.getSetCookie());
    if (lines.length < 3) failures.push(`${label}: only ${lines.length} cookies set`);
    for (const line of lines) {
      cases++;
      const name = line.split('=')[0];
      const flags = line.toLowerCase();
      if (!flags.includes('; httponly')) failures.push(`${label}: ${name} without HttpOnly`);
      if (!/; samesite=(lax|strict)/.test(flags)) failures.push(`${label}: ${name} without SameSite=Lax/Strict`);
      if (secure && !flags.includes('; secure')) failures.push(`${label}: ${name} without Secure`);
    }
  }
  recordTally({
    check: 'Cookies',
    counts: 'cookies without HttpOnly or SameSite, or without Secure behind an HTTPS proxy (TRUST_PROXY)',
    cases,
    failures,
  });
  expect(failures).toEqual([]);
});

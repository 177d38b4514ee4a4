/**
 * The outbox and Google sign-in, as `npm start` serves them (no ENABLE_DEV_TOOLS): the outbox and the
 * stand-in Google page do not exist, emails go to the server log, "Continue with Google" is
 * hidden without a Google client, and with one (a local OpenID Connect provider standing in
 * for Google) the browser signs in through the real code flow. On the same plain server, every
 * other development convenience is closed too, since none of their switches is set. Runs its
 * own servers.
 */
import { OAuth2Server } from 'oauth2-mock-server';
import { expect, SERVER_RENDERED, test } from './fixtures';
import { killServers, startServer, type ServerProcess } from './support/server-process';
import { DEMO_MAIL_NOTE } from '../../app/lib/auth-errors';

let plain: ServerProcess;
let withGoogle: ServerProcess;
let idp: OAuth2Server;
let nextEmail = '';

test.beforeAll(async () => {
  test.setTimeout(180_000); // starting its own production server(s) is slow on a busy machine
  idp = new OAuth2Server();
  await idp.issuer.keys.generate('RS256');
  await idp.start(0, '127.0.0.1');
  idp.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, { sub: `sub-${nextEmail}`, email: nextEmail, email_verified: true, name: 'Ida' });
  });
  [plain, withGoogle] = await Promise.all([
    // None of the development switches set (the test run's own are unset here).
    startServer('memory', { ENABLE_DEV_TOOLS: '', ENABLE_PERF_FIXTURE: '', ENABLE_FAULT_INJECTION: '' }),
    startServer('memory', {
      ENABLE_DEV_TOOLS: 'false',
      GOOGLE_CLIENT_ID: 'agentmarket-e2e',
      GOOGLE_CLIENT_SECRET: 'e2e-secret',
      GOOGLE_ISSUER_URL: idp.issuer.url!,
    }),
  ]);
});

test.afterAll(async () => {
  killServers();
  await idp?.stop();
});

test('every development door is closed in production', SERVER_RENDERED, async ({ request, browser }) => {
  // the doors are the server's: one run is enough
  for (const path of [
    '/auth/v1/_local/outbox',
    '/auth/v1/_local/outbox.json?to=admin@demo.test',
    '/auth/v1/_local/google',
    '/auth/v1/_local/avatar?name=x',
    '/__perf/fixture',
  ]) {
    const response = await request.get(`${plain.origin}${path}`);
    expect(response.status(), path).toBe(404);
    expect(await response.text(), path).not.toContain('admin@demo.test');
  }
  // The renewal job's clock (tests/e2e/commerce/renewals.spec.ts) does not exist either.
  const clock = await request.post(`${plain.origin}/__dev/renewals`, { form: { at: new Date().toISOString() } });
  expect(clock.status()).toBe(404);

  // The fault-injection cookie is ignored: the marketplace answers normally.
  const context = await browser.newContext();
  await context.addCookies([{ name: 'am_fault', value: 'catalogue', url: plain.origin }]);
  const page = await context.newPage();
  const response = await page.goto(`${plain.origin}/marketplace`);
  expect(response?.status()).toBe(200);
  await expect(page.getByText('Injected fault')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.close();
});

test('without a Google client the button is hidden, and a reset email goes to the server log', async ({ page }) => {
  await page.goto(`${plain.origin}/auth/sign-in`);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0);
  await page.goto(`${plain.origin}/?auth=sign-up`);
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0);

  await page.goto(`${plain.origin}/auth/forgot-password`);
  await page.locator('form[action="/auth/forgot-password"]').getByLabel('Email').fill('buyer@demo.test');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  // A demo (DEMO_MODE=true, as `npm start`) without SMTP says where its emails go, next to the message.
  await expect(page.getByRole('status').filter({ hasText: 'If an account exists for that email' })).toContainText(
    DEMO_MAIL_NOTE,
  );
  await expect
    .poll(() => plain.output())
    .toMatch(
      /\[auth\] email not sent \(no SMTP configured\): to=buyer@demo\.test subject="Reset Your Password" link=http:\/\/127\.0\.0\.1:\d+\/auth\/v1\/verify\?token=/,
    );
});

test('with a Google client, Continue with Google signs in through the OpenID Connect provider', async ({ page }) => {
  nextEmail = `ida-${test.info().project.name}-${Date.now()}@example.com`;
  await page.goto(`${withGoogle.origin}/auth/sign-in?redirectTo=%2Fdashboard`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(`${withGoogle.origin}/dashboard`);
  await expect(page.getByRole('banner').getByLabel(/Account menu for/)).toBeVisible();
  const standIn = await page.request.get(`${withGoogle.origin}/auth/v1/_local/google`);
  expect(standIn.status()).toBe(404);
});

/**
 * Sign-up with email confirmation on: the form shows the specification's success message, and
 * the link in the email (the embedded backend's outbox) confirms the account and signs in.
 * Runs its own server with EMBEDDED_EMAIL_CONFIRMATIONS=true and the development outbox on, once,
 * without JavaScript: the sign-up form's JavaScript path is the same with confirmations on or off
 * (accounts.spec.ts runs it), what changes is the server's answer and the emailed link.
 */
import { expect, isJavaScriptProject, test } from './fixtures';
import { killServers, startServer } from './support/server-process';
import { DEMO_MAIL_NOTE } from '../../app/lib/auth-errors';

let origin: string;

test.beforeAll(async () => {
  // Skipped here, before its server starts.
  test.skip(isJavaScriptProject(), 'what the server answers: the no-JavaScript run checks it');
  test.setTimeout(180_000); // starting its own production server(s) is slow on a busy machine
  ({ origin } = await startServer('memory', { EMBEDDED_EMAIL_CONFIRMATIONS: 'true', ENABLE_DEV_TOOLS: 'true' }));
});

test.afterAll(() => killServers());

test('sign-up asks to confirm the email, and the emailed link signs in', async ({ page, request }) => {
  const username = `confirm${test.info().project.name}${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  await page.goto(`${origin}/?auth=sign-up`);
  const form = page.locator('form[action="/auth/sign-up"]');
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill('confirm-me-1');
  await form.getByRole('button', { name: 'Create Account' }).click();
  // The specification's message, and beside it (a demo without SMTP) where the email can be read.
  const created = page.getByRole('status').filter({ hasText: 'Account created successfully!' });
  await expect(created.locator('p').first()).toHaveText(
    'Account created successfully! Please check your email for a confirmation link.',
  );
  await expect(created.locator('p').last()).toHaveText(DEMO_MAIL_NOTE);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();

  // Signing in before confirming gives the catalogue message.
  await page.goto(`${origin}/auth/sign-in`);
  const signIn = page.locator('form[action="/auth/sign-in"]');
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill('confirm-me-1');
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toContainText('Please check your email and click the confirmation link');
  await expect(page.getByRole('alert')).toContainText(DEMO_MAIL_NOTE);

  const outbox = await request.get(`${origin}/auth/v1/_local/outbox.json?to=${encodeURIComponent(email)}`);
  const { emails } = (await outbox.json()) as { emails: { type: string; link: string }[] };
  const confirmation = emails.find((message) => message.type === 'signup');
  expect(confirmation?.link).toBeTruthy();
  await page.goto(confirmation!.link);
  // Back where the dialog was opened (the home page), now signed in.
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByRole('banner').getByLabel(`Account menu for ${username}`)).toBeVisible();
});

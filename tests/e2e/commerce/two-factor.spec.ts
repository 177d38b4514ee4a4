/**
 * Two-factor sign-in with TOTP (ADR 016), with JavaScript on and off, on a fresh
 * account: enable it from the Security tab (QR code and secret, confirmed by a first code), sign
 * out, sign in and be asked for a code (the session is not signed in before it: the header and
 * the guarded pages say so), a wrong code refused, the right one signs in, then turn it off with
 * a current code. The codes are computed here from the secret the page shows, with the embedded
 * Auth's own RFC 6238 implementation.
 */
import type { Page } from '@playwright/test';
import { totpCode } from '../../../packages/supabase-embedded/src/auth/totp';
import { expect, expectAccessible, test } from '../fixtures';
import { NEW_USER_PASSWORD, signInAs, signOut, signUpNewUser, uniqueName } from '../support/accounts';

const toast = (page: Page, message: string) => page.getByRole('status').filter({ hasText: message });

/** The code an authenticator app shows now. */
const codeNow = (secret: string) => totpCode(secret);

/** Six digits no authenticator would accept now (not the code of the previous, current or next step). */
function wrongCode(secret: string): string {
  const now = Date.now() / 1000;
  const valid = new Set([-60, -30, 0, 30, 60].map((drift) => totpCode(secret, now + drift)));
  for (let value = 0; ; value += 1) {
    const candidate = String(value).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

test('TOTP: enable with a first code, sign in asks for a code, a wrong one is refused, disable with a current one', async ({
  page,
}) => {
  test.slow(); // sign-up, three sign-ins and axe on three pages in two themes
  const username = await signUpNewUser(page, uniqueName('tfa', test.info().project.name));
  const email = `${username}@example.com`;
  const banner = page.getByRole('banner');

  // Enable: the Security tab starts the setup; the next page shows the QR code and the secret.
  await page.goto('/profile?tab=security');
  await expect(page.getByText('Two-factor authentication is off for your account.')).toBeVisible();
  await page.getByRole('button', { name: 'Enable Two-Factor' }).click();
  await expect(page).toHaveURL(/\/profile\/two-factor$/);
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const secret = (await page.locator('code').first().innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByText('Show the setup link').click();
  await expect(page.getByText(/^otpauth:\/\/totp\/AgentMarket/)).toContainText(`secret=${secret}`);

  // A wrong first code: refused, the same setup still on screen.
  await page.getByLabel('Authentication code').fill(wrongCode(secret));
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right.');
  await expect(page.locator('code').first()).toHaveText(secret.match(/.{1,4}/g)!.join(' '));
  await page.getByLabel('Authentication code').fill(codeNow(secret));
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(page).toHaveURL(/\/profile\?tab=security$/);
  await expect(toast(page, 'Two-factor authentication is on.')).toBeVisible();
  await expect(page.getByText('Two-factor authentication is on for your account.')).toBeVisible();
  await expectAccessible(page);
  await page.goto('/profile/two-factor');
  await expect(page.getByRole('button', { name: 'Disable Two-Factor' })).toBeVisible();
  await expectAccessible(page);

  // Sign in again: the password is not enough.
  await signOut(page, username);
  await page.goto(`/auth/sign-in?${new URLSearchParams({ redirectTo: '/dashboard/purchases' })}`);
  const signInForm = page.locator('form[action="/auth/sign-in"]');
  await signInForm.getByLabel('Email').fill(email);
  await signInForm.getByLabel('Password').fill(NEW_USER_PASSWORD);
  await signInForm.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth\/two-factor\?redirectTo=%2Fdashboard%2Fpurchases$/);
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(banner.getByLabel(`Account menu for ${username}`)).toHaveCount(0);
  await expectAccessible(page);

  // Until the code, a page that needs sign-in sends here (and back afterwards).
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\/two-factor\?redirectTo=%2Fprofile$/);
  await page.goto(`/auth/two-factor?${new URLSearchParams({ redirectTo: '/dashboard/purchases' })}`);

  await page.getByLabel('Authentication code').fill(wrongCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right.');
  await expect(page).toHaveURL(/\/auth\/two-factor/);
  await expect(banner.getByLabel(`Account menu for ${username}`)).toHaveCount(0);

  await page.getByLabel('Authentication code').fill(codeNow(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard\/purchases$/);
  await expect(banner.getByLabel(`Account menu for ${username}`)).toBeVisible();

  // Disable: a current code is asked for; then the password alone signs in again.
  await page.goto('/profile?tab=security');
  await page.getByRole('link', { name: 'Disable Two-Factor' }).click();
  await expect(page).toHaveURL(/\/profile\/two-factor$/);
  await page.getByLabel('Authentication code').fill('12345');
  await page.getByRole('button', { name: 'Disable Two-Factor' }).click();
  await expect(page.getByRole('alert')).toContainText('Enter the 6-digit code from your authenticator app.');
  await page.getByLabel('Authentication code').fill(codeNow(secret));
  await page.getByRole('button', { name: 'Disable Two-Factor' }).click();
  await expect(page).toHaveURL(/\/profile\?tab=security$/);
  await expect(toast(page, 'Two-factor authentication is off.')).toBeVisible();
  await expect(page.getByText('Two-factor authentication is off for your account.')).toBeVisible();

  await signOut(page, username);
  await signInAs(page, { email, username });
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the code page is only for a session that owes a code', async ({ page }) => {
  await page.goto('/auth/two-factor?redirectTo=%2Fdashboard');
  await expect(page).toHaveURL(/\/\?auth=sign-in&redirectTo=%2Fdashboard$/);
  const username = await signUpNewUser(page, uniqueName('tfa2', test.info().project.name));
  expect(username).toBeTruthy();
  await page.goto('/auth/two-factor?redirectTo=%2F%2Fevil.example');
  await expect(page).toHaveURL(/\/dashboard$/);
});

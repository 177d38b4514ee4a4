/**
 * Account self-service on /profile, with JavaScript on and off, each test on a fresh
 * account: the picture (a valid one reaches the header; a 3 MB file and a text file named .png
 * are refused beside the control), Change Password (the other session ends, the new password
 * signs in), Export Data (a JSON download of the account) and Delete Account (it can no longer
 * sign in). axe on each tab touched.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, test } from '../fixtures';
import { DEMO_ACCOUNTS, NEW_USER_PASSWORD, signUpNewUser, uniqueName } from '../support/accounts';

const unique = (prefix: string) => uniqueName(prefix, test.info().project.name);

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const pictureForm = (page: Page) => page.locator('form[action="/profile?tab=profile&form=picture"]');
const accountMenu = (page: Page, username: string) =>
  page.getByRole('banner').getByLabel(`Account menu for ${username}`);

async function choosePicture(page: Page, name: string, mimeType: string, buffer: Buffer) {
  await pictureForm(page).getByLabel('Profile picture').setInputFiles({ name, mimeType, buffer });
  await pictureForm(page).getByRole('button', { name: 'Upload new picture' }).click();
}

async function signInWith(page: Page, email: string, password: string) {
  await page.goto('/auth/sign-in');
  const form = page.locator('form[action="/auth/sign-in"]');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

async function secondBrowser(browser: Browser, page: Page) {
  const context = await browser.newContext({
    baseURL: new URL(page.url()).origin,
    javaScriptEnabled: isJavaScriptProject(),
  });
  return context.newPage();
}

test('a picture reaches the header; a 3 MB file and a text file named .png are refused', async ({ page }) => {
  test.slow();
  const username = await signUpNewUser(page, unique('pic'));
  await page.goto('/profile?tab=profile');
  await expect(page.getByText('JPG, PNG or GIF. Max size 2MB.')).toBeVisible();
  await expectAccessible(page);

  await choosePicture(page, 'me.png', 'image/png', PNG);
  await expect(page.getByRole('status').filter({ hasText: 'Your picture has been updated.' })).toBeVisible();
  const headerPicture = accountMenu(page, username).locator('img');
  await expect(headerPicture).toHaveAttribute(
    'src',
    /\/storage\/v1\/object\/public\/avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.png$/,
  );
  const src = await headerPicture.getAttribute('src');
  const served = await page.request.get(src ?? '');
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('image/png');

  const large = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]);
  await choosePicture(page, 'large.png', 'image/png', large);
  await expect(pictureForm(page).getByText('The picture is too large. Max size 2MB.')).toBeVisible();

  await page.goto('/profile?tab=profile');
  await choosePicture(page, 'notes.png', 'image/png', Buffer.from('just some text, not an image\n'));
  await expect(pictureForm(page).getByText('The picture must be a JPG, PNG or GIF image.')).toBeVisible();
  await expect(pictureForm(page).getByLabel('Profile picture')).toHaveAttribute('aria-invalid', 'true');

  // Nothing changed: the first picture is still the one shown.
  await page.goto('/dashboard');
  await expect(accountMenu(page, username).locator('img')).toHaveAttribute('src', src ?? '');
});

test('change password: wrong current refused, other session ends, new password signs in', async ({ page, browser }) => {
  test.slow();
  const username = await signUpNewUser(page, unique('pwd'));
  const email = `${username}@example.com`;
  const other = await secondBrowser(browser, page);
  await signInWith(other, email, NEW_USER_PASSWORD);
  await expect(accountMenu(other, username)).toBeVisible();

  await page.goto('/profile?tab=security');
  await expect(page.getByText(/· Current Session/)).toBeVisible();
  await expect(page.getByRole('list').filter({ hasText: 'Last active' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Sign out of other sessions' })).toBeVisible();
  await expectAccessible(page);

  const form = page
    .locator('form[action="/profile?tab=security"]')
    .filter({ has: page.getByLabel('Current password') });
  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByLabel('New password', { exact: true }).fill('brand-new-secret');
  await form.getByLabel('Confirm new password').fill('brand-new-secret');
  await form.getByRole('button', { name: 'Change Password' }).click();
  await expect(form.getByText('Your current password is not correct.').first()).toBeVisible();

  await form.getByLabel('Current password').fill(NEW_USER_PASSWORD);
  await form.getByLabel('New password', { exact: true }).fill('brand-new-secret');
  await form.getByLabel('Confirm new password').fill('brand-new-secret');
  await form.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your password has been changed.' })).toBeVisible();
  // This browser stays signed in, alone.
  await expect(accountMenu(page, username)).toBeVisible();
  await expect(page.getByText('You are signed in on this browser only.')).toBeVisible();

  // The other browser's session is over.
  await other.goto('/profile');
  await expect(other).toHaveURL(/auth=sign-in/);
  await other.context().close();

  // The old password no longer works; the new one does.
  const fresh = await secondBrowser(browser, page);
  await signInWith(fresh, email, NEW_USER_PASSWORD);
  await expect(fresh.getByRole('alert').first()).toBeVisible();
  await signInWith(fresh, email, 'brand-new-secret');
  await expect(accountMenu(fresh, username)).toBeVisible();
  await fresh.context().close();
});

test('export data downloads the account as JSON', async ({ page }) => {
  const username = await signUpNewUser(page, unique('exp'));
  await page.goto('/profile?tab=profile');
  const details = page.locator('form[action="/profile?tab=profile"]');
  await details.getByLabel('First name').fill('Grace');
  await details.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile updated successfully!' })).toBeVisible();
  // One form state at a time: a failed save after it shows only its own error.
  await details.getByLabel('Username').fill(DEMO_ACCOUNTS.buyer.username);
  await details.getByRole('button', { name: 'Save Changes' }).click();
  await expect(details.getByRole('alert')).toContainText('This username is already taken.');
  await expect(page.getByText('Profile updated successfully!')).toHaveCount(0);

  await page.goto('/profile?tab=data');
  await expectAccessible(page);
  const response = await page.request.get('/profile/export');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-disposition']).toMatch(/^attachment; filename="agentmarket-.+\.json"$/);
  const body = (await response.json()) as Record<string, unknown> & {
    profile: { username: string; first_name: string; email: string };
    settings: { profile_visibility: string };
  };
  expect(body.format).toBe('agentmarket.account-export');
  expect(body.version).toBe(5);
  expect(body.profile.username).toBe(username);
  expect(body.profile.email).toBe(`${username}@example.com`);
  expect(body.profile.first_name).toBe('Grace');
  expect(body.settings.profile_visibility).toBe('public');
  for (const list of [
    'purchases',
    'reviews',
    'downloads',
    'subscriptions',
    'subscription_charges',
    'agents',
    'sales',
  ]) {
    expect(body[list]).toEqual([]);
  }

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export Data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^agentmarket-${username}-\\d{4}-\\d\\d-\\d\\d\\.json$`));
});

test('delete account: the username must be typed; afterwards it cannot sign in', async ({ page }) => {
  test.slow();
  const username = await signUpNewUser(page, unique('del'));
  await page.goto('/profile?tab=data');
  const form = page.locator('form[action="/profile?tab=data"]');
  await form.getByLabel(/Type your username/).fill(`${username}x`);
  await form.getByRole('button', { name: 'Delete Account' }).click();
  await expect(form.getByText('Type your username exactly to confirm.').first()).toBeVisible();

  await form.getByLabel(/Type your username/).fill(username);
  await form.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your account has been deleted.' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();

  await signInWith(page, `${username}@example.com`, NEW_USER_PASSWORD);
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expect(accountMenu(page, username)).toHaveCount(0);
});

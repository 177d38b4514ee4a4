import { expect, type Page } from '@playwright/test';

/** The seeded demo accounts (supabase/seed.sql), all with the password `demo-password`. */
export const DEMO_ACCOUNTS = {
  buyer: { email: 'buyer@demo.test', username: 'demo_buyer' },
  seller: { email: 'seller@demo.test', username: 'demo_seller' },
  admin: { email: 'admin@demo.test', username: 'demo_admin' },
} as const;

export const DEMO_PASSWORD = 'demo-password';

export type DemoRole = keyof typeof DEMO_ACCOUNTS;

/**
 * Signs in through the real sign-in page (works with and without JavaScript) and waits until
 * the destination shows the signed-in header.
 */
export async function signIn(page: Page, role: DemoRole, redirectTo = '/dashboard') {
  await signInAs(page, DEMO_ACCOUNTS[role], redirectTo);
}

/** `signIn` for any seeded account (password `demo-password`), e.g. one of the other buyers. */
export async function signInAs(page: Page, account: { email: string; username: string }, redirectTo = '/dashboard') {
  await page.goto(`/auth/sign-in?${new URLSearchParams({ redirectTo })}`);
  const form = page.locator('form[action="/auth/sign-in"]');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('banner').getByLabel(`Account menu for ${account.username}`)).toBeVisible();
}

/** Signs out through the header's account menu (a POST form). */
export async function signOut(page: Page, username: string) {
  const banner = page.getByRole('banner');
  await banner.getByLabel(`Account menu for ${username}`).click();
  await banner.getByRole('button', { name: 'Sign Out' }).click();
  await expect(banner.getByRole('link', { name: 'Sign In' })).toBeVisible();
}

/** A name no other test and no other project (js / nojs) uses. */
export function uniqueName(prefix: string, project: string): string {
  return `${prefix}${project}${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/**
 * A fresh buyer account through the real sign-up dialog, signed in afterwards, so a test that
 * changes data leaves the demo accounts untouched. Returns the username (email: `<username>@example.com`).
 */
export async function signUpNewUser(page: Page, username: string): Promise<string> {
  await page.goto('/?auth=sign-up');
  const form = page.locator('form[action="/auth/sign-up"]');
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Email').fill(`${username}@example.com`);
  await form.getByLabel('Password').fill('secret-123');
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('banner').getByLabel(`Account menu for ${username}`)).toBeVisible();
  return username;
}

import { expect, type APIResponse, type Page } from '@playwright/test';

/** The seeded demo accounts (supabase/seed.sql), all with the password `demo-password`. */
export const DEMO_ACCOUNTS = {
  buyer: { email: 'buyer@demo.test', username: 'demo_buyer' },
  seller: { email: 'seller@demo.test', username: 'demo_seller' },
  admin: { email: 'admin@demo.test', username: 'ada_lovelace' },
} as const;

export const DEMO_PASSWORD = 'demo-password';
/** The password of every account `signUpNewUser` creates. */
export const NEW_USER_PASSWORD = 'secret-123';

export type DemoRole = keyof typeof DEMO_ACCOUNTS;

/**
 * Signs in as a demo account and opens `redirectTo` with the signed-in header. The sign-in itself
 * is the sign-in form's real POST, sent from the page's browser context (its cookies land there)
 * without rendering the sign-in page: specs that test the sign-in page use `signInThroughPage`.
 */
export async function signIn(page: Page, role: DemoRole, redirectTo = '/dashboard') {
  await signInAs(page, DEMO_ACCOUNTS[role], redirectTo);
}

const passwordOf = (email: string) => (email.endsWith('@demo.test') ? DEMO_PASSWORD : NEW_USER_PASSWORD);

/** `signIn` for any account: seeded ones (`…@demo.test`, `demo-password`) or made by `signUpNewUser`. */
export async function signInAs(page: Page, account: { email: string; username: string }, redirectTo = '/dashboard') {
  const response = await page.request.post('/auth/sign-in', {
    form: { email: account.email, password: passwordOf(account.email), redirectTo },
    maxRedirects: 0,
  });
  await followRedirect(page, response, `sign-in as ${account.username}`);
  await expect(page.getByRole('banner').getByLabel(`Account menu for ${account.username}`)).toBeVisible();
}

/** Signs in through the real sign-in page (works with and without JavaScript). */
export async function signInThroughPage(
  page: Page,
  account: { email: string; username: string },
  redirectTo = '/dashboard',
) {
  await page.goto(`/auth/sign-in?${new URLSearchParams({ redirectTo })}`);
  const form = page.locator('form[action="/auth/sign-in"]');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill(passwordOf(account.email));
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

/**
 * A name no other test and no other Playwright project uses, valid as a username (letters, digits
 * and underscores, at most 30 characters with a prefix of up to 12).
 */
export function uniqueName(prefix: string, project: string): string {
  const projectCode = project.replace(/[^a-z0-9]/gi, '').slice(-6);
  return `${prefix}${projectCode}${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** Opens where a form's POST redirected to (its 302/303), in the page. */
async function followRedirect(page: Page, response: APIResponse, what: string) {
  expect([302, 303], `${what}: ${response.status()} ${await response.text()}`).toContain(response.status());
  await page.goto(response.headers().location ?? '/');
}

/**
 * A fresh buyer account through the sign-up form's real POST (sent from the page's browser
 * context, like `signIn`), signed in afterwards on `/`, so a test that changes data leaves the
 * demo accounts untouched. Returns the username (email: `<username>@example.com`).
 */
export async function signUpNewUser(page: Page, username: string): Promise<string> {
  const response = await page.request.post('/auth/sign-up', {
    form: { username, email: `${username}@example.com`, password: NEW_USER_PASSWORD, redirectTo: '/' },
    maxRedirects: 0,
  });
  await followRedirect(page, response, `sign-up as ${username}`);
  await expect(page.getByRole('banner').getByLabel(`Account menu for ${username}`)).toBeVisible();
  return username;
}

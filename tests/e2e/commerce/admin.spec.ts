/**
 * The admin tools against the real server, with JavaScript on and off: /dashboard/users (change a
 * role, ban, unban) and /dashboard/moderation (unpublish, restore). Every user changed is a fresh
 * account; the moderated agent is one no other commerce spec asserts on, one per project
 * (seed agent 71 'Financial Report Writer' with JavaScript, 72 'Payroll Checker' without).
 */
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, test } from '../fixtures';
import { NEW_USER_PASSWORD, signIn, signInAs, signUpNewUser, uniqueName } from '../support/accounts';

const BANNED_MESSAGE =
  'This account has been suspended by an administrator, so you cannot sign in. Please contact support if you think this is a mistake.';

/** A second browser session as the demo admin, JavaScript as in this project. */
async function openAsAdmin(browser: Browser, baseURL: string | undefined, path: string) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: isJavaScriptProject() });
  const page = await context.newPage();
  await signIn(page, 'admin', path);
  return page;
}

/** Opens the Manage panel of `username` on /dashboard/users (searched by name). */
async function manage(admin: Page, username: string) {
  await admin.goto(`/dashboard/users?q=${username}`);
  const row = admin.getByRole('listitem', { name: username, exact: true });
  await row.getByRole('link', { name: `Manage ${username}` }).click();
  return row.getByRole('group', { name: `Manage ${username}` });
}

async function submitReason(panel: ReturnType<Page['getByRole']>, formName: RegExp, reason: string, button: string) {
  const form = panel.getByRole('form', { name: formName });
  await form.getByLabel('Reason').fill(reason);
  await form.getByRole('button', { name: button }).click();
}

function auditEntry(page: Page, text: RegExp) {
  return page.getByRole('region', { name: 'Audit log' }).getByRole('listitem').filter({ hasText: text });
}

test('an admin makes a fresh user a seller, and their dashboard says so at once', async ({
  page,
  browser,
  baseURL,
}) => {
  const username = await signUpNewUser(page, uniqueName('role', test.info().project.name));
  await page.goto('/dashboard');
  await expect(page.getByText('Buyer Account', { exact: true })).toBeVisible();

  const admin = await openAsAdmin(browser, baseURL, '/dashboard/users');
  await expect(admin.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();
  const panel = await manage(admin, username);
  await panel.getByLabel('Role', { exact: true }).selectOption('seller');
  await submitReason(panel, /^Change the role of/, 'Wants to list agents', 'Change role');
  await expect(admin.getByRole('status').filter({ hasText: `The role of ${username} is now Seller.` })).toBeVisible();
  const row = admin.getByRole('listitem', { name: username, exact: true });
  await expect(row.getByText('Seller', { exact: true })).toBeVisible();
  await expect(
    auditEntry(admin, new RegExp(`ada_lovelace changed the role of ${username} \\(Buyer → Seller\\)`)),
  ).toContainText('Reason: Wants to list agents');

  await page.reload();
  await expect(page.getByText('Seller Account', { exact: true })).toBeVisible();
  await admin.context().close();
});

test('a banned user cannot sign in and their session ends; unbanned, they can', async ({ page, browser, baseURL }) => {
  const username = await signUpNewUser(page, uniqueName('ban', test.info().project.name));
  await page.goto('/dashboard');

  const admin = await openAsAdmin(browser, baseURL, '/dashboard/users');
  let panel = await manage(admin, username);
  // A reason is required (checked on the server: three characters of which two are spaces).
  await submitReason(panel, new RegExp(`^Ban ${username}`), '  x', 'Ban user');
  await expect(panel.getByText('Please give a reason of at least 3 characters.').first()).toBeVisible();
  await expect(admin.getByRole('listitem', { name: username, exact: true }).getByText('Banned')).toHaveCount(0);
  await submitReason(panel, new RegExp(`^Ban ${username}`), 'Spam in reviews', 'Ban user');
  await expect(admin.getByRole('status').filter({ hasText: `${username} is banned.` })).toBeVisible();
  const row = admin.getByRole('listitem', { name: username, exact: true });
  await expect(row.getByText(/^Banned .*: Spam in reviews$/)).toBeVisible();

  // Their session is over: the dashboard sends them to sign in; signing in is refused.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/auth=sign-in/);
  await page.goto('/auth/sign-in');
  const form = page.locator('form[action="/auth/sign-in"]');
  await form.getByLabel('Email').fill(`${username}@example.com`);
  await form.getByLabel('Password').fill(NEW_USER_PASSWORD);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText(BANNED_MESSAGE)).toBeVisible();

  panel = await manage(admin, username);
  await submitReason(panel, new RegExp(`^Unban ${username}`), 'Appeal accepted', 'Unban user');
  await expect(admin.getByRole('status').filter({ hasText: `${username} is no longer banned.` })).toBeVisible();
  await expect(auditEntry(admin, new RegExp(`ada_lovelace banned ${username} `))).toContainText(
    'Reason: Spam in reviews',
  );
  await expect(auditEntry(admin, new RegExp(`ada_lovelace unbanned ${username} `))).toContainText(
    'Reason: Appeal accepted',
  );

  await signInAs(page, { email: `${username}@example.com`, username });
  await admin.context().close();
});

test('an admin cannot ban or demote themselves', async ({ page }) => {
  await signIn(page, 'admin', '/dashboard/users');
  const panel = await manage(page, 'ada_lovelace');
  await expect(panel.getByText('This is your own account: you cannot demote or ban yourself.')).toBeVisible();
  await submitReason(panel, /^Ban ada_lovelace/, 'Testing the rule', 'Ban user');
  await expect(panel.getByText('You cannot demote or ban your own account.')).toBeVisible();
  await panel.getByLabel('Role', { exact: true }).selectOption('buyer');
  await submitReason(panel, /^Change the role of ada_lovelace/, 'Testing the rule', 'Change role');
  await expect(panel.getByText('You cannot demote or ban your own account.').first()).toBeVisible();
  await page.goto('/dashboard/users?q=ada_lovelace');
  await expect(
    page.getByRole('listitem', { name: 'ada_lovelace', exact: true }).getByText('Administrator'),
  ).toBeVisible();
});

test('a non-admin posting to the role change is refused and nothing changes', async ({ page }) => {
  const username = await signUpNewUser(page, uniqueName('forge', test.info().project.name));
  await page.goto('/dashboard');
  const origin = new URL(page.url()).origin;
  const response = await page.request.post('/dashboard/users', {
    form: { intent: 'role', userId: '00000000-0000-4000-8000-000000000001', role: 'admin', reason: 'Let me in' },
    headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  await page.reload();
  await expect(page.getByRole('banner').getByLabel(`Account menu for ${username}`)).toBeVisible();
  await expect(page.getByText('Buyer Account', { exact: true })).toBeVisible();
  expect((await page.goto('/dashboard/users'))?.status()).toBe(403);
});

test('an admin unpublishes an agent with a reason and restores it; both are audited', async ({ page }) => {
  test.setTimeout(120_000); // many page loads on a busy machine
  const agent = isJavaScriptProject() ? 'Financial Report Writer' : 'Payroll Checker';
  await signIn(page, 'admin', `/dashboard/moderation?q=${encodeURIComponent(agent)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Content Moderation' })).toBeVisible();
  const row = page.getByRole('listitem', { name: agent, exact: true });
  await row.getByRole('link', { name: `Unpublish ${agent}` }).click();
  const panel = row.getByRole('group', { name: `Moderate ${agent}` });
  await submitReason(panel, new RegExp(`^Unpublish ${agent}`), 'Claims it files taxes', 'Unpublish agent');
  await expect(page.getByRole('status').filter({ hasText: `${agent} was unpublished.` })).toBeVisible();
  await expect(row.getByText('Unpublished by moderation')).toBeVisible();
  await expect(row.getByText('Moderation reason: Claims it files taxes')).toBeVisible();

  const marketplace = `/marketplace?q=${encodeURIComponent(agent)}`;
  await page.goto(marketplace);
  await expect(page.getByRole('heading', { name: 'No agents found' })).toBeVisible();

  await page.goto(`/dashboard/moderation?q=${encodeURIComponent(agent)}`);
  await row.getByRole('link', { name: `Restore ${agent}` }).click();
  await submitReason(panel, new RegExp(`^Restore ${agent}`), 'Listing corrected', 'Restore agent');
  await expect(page.getByRole('status').filter({ hasText: `${agent} is published again.` })).toBeVisible();
  await expect(row.getByText('Published', { exact: true })).toBeVisible();
  await expect(auditEntry(page, new RegExp(`ada_lovelace unpublished ${agent} `)).first()).toContainText(
    'Reason: Claims it files taxes',
  );
  await expect(auditEntry(page, new RegExp(`ada_lovelace restored ${agent} `)).first()).toContainText(
    'Reason: Listing corrected',
  );

  await page.goto(marketplace);
  await expect(page.getByRole('region', { name: 'Results' }).getByRole('article')).toContainText([agent]);
});

test('both admin pages pass axe with a form open', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'admin', '/dashboard/users');
  await manage(page, 'demo_buyer');
  await expectAccessible(page);
  await page.goto('/dashboard/moderation');
  const row = page
    .getByRole('region', { name: /^Published and unpublished agents/ })
    .getByRole('listitem')
    .first();
  await row.getByRole('link', { name: /^Unpublish / }).click();
  await expect(page.getByRole('group', { name: /^Moderate / })).toBeVisible();
  await expectAccessible(page);
});

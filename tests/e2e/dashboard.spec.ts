import type { Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, SERVER_RENDERED, test } from './fixtures';
import { signIn, type DemoRole } from './support/accounts';
import { DEMO_MAIL_NOTE } from '../../app/lib/auth-errors';

/** The side navigation each account type sees. */
const BUYER_NAV = ['Overview', 'My Collection', 'Purchase History', 'Messages', 'Membership', 'Billing'];
const SELLER_NAV = [
  'Overview',
  'My Collection',
  'Purchase History',
  'My AI Agents',
  'Upload Agent',
  'Sales Analytics',
  'Earnings',
  'Messages',
  'Reviews',
  'Developers',
  'Membership',
  'Billing',
];
const ADMIN_NAV = [
  ...SELLER_NAV.slice(0, -2),
  'User Management',
  'Content Moderation',
  'System Settings',
  'Reports',
  'Platform Analytics',
  'Database',
  'Disputes',
  'Policies',
  'Membership',
  'Billing',
];
const NAV: Record<DemoRole, string[]> = { buyer: BUYER_NAV, seller: SELLER_NAV, admin: ADMIN_NAV };
const BADGE: Record<DemoRole, string> = { buyer: 'Buyer', seller: 'Seller', admin: 'Administrator' };

const dashboardNav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

test.describe('dashboard shell', () => {
  for (const role of ['buyer', 'seller', 'admin'] as const) {
    test(`${role}: the navigation lists only permitted entries`, SERVER_RENDERED, async ({ page }) => {
      await signIn(page, role);
      await expect(page).toHaveURL(/\/dashboard$/);
      const nav = dashboardNav(page);
      await expect(nav.getByRole('link')).toHaveText(NAV[role]);
      await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);

      const aside = page.getByRole('complementary').filter({ has: nav });
      await expect(aside.getByText(BADGE[role], { exact: true })).toBeVisible();
      await expect(aside.getByText('Full Access', { exact: true })).toHaveCount(role === 'admin' ? 1 : 0);
      // One entry per page: no Quick Upload beside Upload Agent, no Admin Panel beside User Management.
      await expect(aside.getByRole('link', { name: 'Quick Upload' })).toHaveCount(0);
      await expect(aside.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
      await expect(aside.getByRole('link', { name: 'Upload Agent' })).toHaveCount(role === 'buyer' ? 0 : 1);
      await expect(aside.getByRole('link', { name: 'User Management' })).toHaveCount(role === 'admin' ? 1 : 0);
      await expect(page.getByText(`${BADGE[role]} Account`, { exact: true })).toBeVisible();

      await nav.getByRole('link', { name: 'Billing' }).click();
      await expect(page).toHaveURL(/\/dashboard\/billing$/);
      await expect(nav.getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page');
      await expect(nav.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current', 'page');
    });
  }

  test('signed out: a dashboard page sends to sign-in and back', async ({ page }) => {
    await page.goto('/dashboard/billing');
    await expect(page).toHaveURL(/\/\?auth=sign-in&redirectTo=%2Fdashboard%2Fbilling$/);
  });

  test('a buyer typing a seller or admin address gets 403 inside the shell', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'buyer');
    for (const [path, permission] of <const>[
      ['/dashboard/agents', 'manage_products'],
      ['/dashboard/users', 'manage_users'],
    ]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
      await expect(page.getByText(`You don't have the required permission: ${permission}`)).toBeVisible();
      await expect(dashboardNav(page).getByRole('link')).toHaveText(BUYER_NAV);
    }
    await expectAccessible(page);
  });

  test('a seller is refused admin pages; an admin opens them', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'seller');
    expect((await page.goto('/dashboard/platform-analytics'))?.status()).toBe(403);
    expect((await page.goto('/dashboard/agents'))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'My AI Agents' })).toBeVisible();
    await expectAccessible(page);
  });

  test('an unknown dashboard page is a 404 inside the dashboard', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'admin');
    expect((await page.goto('/dashboard/does-not-exist'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  });

  test('System Settings shows the email outbox to an admin', SERVER_RENDERED, async ({ page }) => {
    // A recovery email for a demo account: its link and code sign that account in.
    await page.goto('/auth/forgot-password');
    await page.locator('form[action="/auth/forgot-password"]').getByLabel('Email').fill('seller@demo.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    // The demo (this server) says where the email is; what follows checks that it is there.
    await expect(page.getByRole('status').filter({ hasText: 'If an account exists for that email' })).toContainText(
      DEMO_MAIL_NOTE,
    );

    await signIn(page, 'admin');
    await dashboardNav(page).getByRole('link', { name: 'System Settings' }).click();
    await expect(page).toHaveURL(/\/dashboard\/system$/);
    await expect(page.getByRole('heading', { level: 1, name: 'System Settings' })).toBeVisible();
    await expect(page.getByText('Not sent: no SMTP server is configured.')).toBeVisible();
    const outbox = page.getByRole('table', { name: 'Email outbox, newest first' });
    const row = outbox.getByRole('row').filter({ hasText: 'seller@demo.test' }).first();
    await expect(row).toContainText('Reset Your Password');
    await expect(row.getByRole('cell').nth(3)).toHaveText(/^\d{6}$/);
    await expect(row).toContainText('/auth/v1/verify?token=');
    await expectAccessible(page);
  });

  for (const role of ['buyer', 'seller'] as const) {
    test(`${role}: System Settings and its outbox are 403`, SERVER_RENDERED, async ({ page }) => {
      await signIn(page, role);
      const response = await page.goto('/dashboard/system');
      expect(response?.status()).toBe(403);
      await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Email outbox, newest first' })).toHaveCount(0);
      await expect(page.getByText('Reset Your Password')).toHaveCount(0);
      await expect(page.getByText('/auth/v1/verify?token=')).toHaveCount(0);
    });
  }

  test('the drawer opens and closes on a small screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'seller');
    const nav = dashboardNav(page);
    await expect(nav).toBeHidden();
    const toggle = page.getByLabel('Dashboard menu');
    await toggle.click();
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link')).toHaveText(SELLER_NAV);
    await toggle.click();
    await expect(nav).toBeHidden();
    await toggle.click();
    await nav.getByRole('link', { name: 'Membership' }).click();
    await expect(page).toHaveURL(/\/dashboard\/membership$/);
    if (isJavaScriptProject()) await expect(nav).toBeHidden(); // closes after a client navigation
    await expectAccessible(page);
  });

  test('Sign Out in the side navigation signs out', async ({ page }) => {
    await signIn(page, 'buyer');
    await page.getByRole('complementary').getByRole('button', { name: 'Sign Out' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  });
});

test.describe('billing', () => {
  test(
    'shows the real plan (Basic for the demo buyer), the saved payment methods and the real history',
    SERVER_RENDERED,
    async ({ page }) => {
      await signIn(page, 'buyer', '/dashboard/billing');
      await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
      const subscription = page.getByRole('region', { name: 'Current Subscription' });
      await expect(subscription).toContainText('Basic');
      await expect(subscription).toContainText('$0.00 / month');
      await expect(subscription.getByRole('link', { name: 'See plans' })).toHaveAttribute(
        'href',
        '/dashboard/membership',
      );
      await expect(subscription.getByText('Sample data')).toHaveCount(0);
      await expect(page.getByText('Sample data')).toHaveCount(0);

      // Real payment methods (tests/e2e/commerce/payment-methods.spec.ts): the demo buyer has none.
      const methods = page.getByRole('region', { name: 'Payment Methods' });
      await expect(methods).toContainText('No saved payment methods yet.');
      await expect(methods.getByRole('link', { name: 'Add Payment Method' })).toHaveAttribute(
        'href',
        '/dashboard/billing/payment-methods/new',
      );

      // The demo buyer's real purchases (seeded: completed, pending, failed and refunded), newest first.
      const history = page.getByRole('region', { name: 'Billing History' });
      await expect(history.getByRole('note')).toHaveCount(0);
      const rows = history.getByRole('row');
      await expect(rows.nth(0).getByRole('columnheader')).toHaveText([
        'Date',
        'Description',
        'Amount',
        'Status',
        'Payment Method',
        'Invoice',
      ]);
      expect(await rows.count()).toBeGreaterThan(3);
      for (const cell of await history.locator('tbody td:nth-child(3)').allTextContents()) {
        expect(cell).toMatch(/^\$[\d,]+\.\d{2}$/);
      }
      await expect(history.getByText('Refunded', { exact: true }).first()).toHaveClass(/bg-blue-100/);
      await expect(history.getByText('Failed', { exact: true }).first()).toHaveClass(/bg-red-100/);
      await expect(history.getByText('Paid', { exact: true }).first()).toHaveClass(/bg-green-100/);
      await expect(history.getByRole('link', { name: /^Invoice AM-\d{8}-[0-9A-F]{8}$/ }).first()).toHaveAttribute(
        'href',
        /^\/dashboard\/billing\/invoices\/[0-9a-f-]{36}$/,
      );
      await expect(history.getByRole('link', { name: 'Download All' })).toHaveAttribute(
        'href',
        '/dashboard/billing/export',
      );
      await expect(page.getByRole('complementary', { name: 'Payment security' })).toBeVisible();
      await expectAccessible(page);
    },
  );
});

test('a new account sees zero figures and the empty Recent Activity', SERVER_RENDERED, async ({ page }) => {
  const username = `fresh${test.info().project.name}${Date.now().toString(36)}`;
  await page.goto('/auth/sign-up?redirectTo=/dashboard');
  const form = page.locator('form[action^="/auth/sign-up"]');
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Email').fill(`${username}@example.com`);
  await form.getByLabel('Password').fill('secret-123');
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('banner').getByLabel(`Account menu for ${username}`)).toBeVisible();
  await page.goto('/dashboard');
  const figures = page.getByRole('region', { name: 'Your figures' }).locator('dd');
  await expect(figures).toHaveText(['0', '$0.00', '0', '0']);
  await expect(page.getByRole('region', { name: 'Recent Activity' })).toContainText('No activity yet');
  await page.goto('/dashboard/membership');
  await expect(
    page.getByText('Spend $1,000.00 more to reach 1,000 loyalty points and your next reward.'),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Loyalty Rewards' })).toContainText('1,000 points away');
});

/**
 * Loader and action failures, with JavaScript on and off: the backend call is made to fail with
 * the test-only fault cookie (ENABLE_FAULT_INJECTION, docs/decisions/007), and the page must
 * answer 503 with the shared 'Service unavailable' screen inside the layout (header, footer and,
 * in the dashboard, its navigation), never React Router's default screen, and recover on retry.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { expect, expectAccessible, JAVASCRIPT_ONLY, SERVER_RENDERED, test } from './fixtures';
import { DEMO_ACCOUNTS, signIn } from './support/accounts';

const SEO_SENTINEL = '/agent/a0000000-0000-4000-8000-000000000002'; // published, not owned by demo_buyer

async function injectFault(context: BrowserContext, name: string) {
  await context.addCookies([{ name: 'am_fault', value: name, url: test.info().project.use.baseURL! }]);
}

async function clearFault(context: BrowserContext) {
  await context.clearCookies({ name: 'am_fault' });
}

/** The error screen inside the layout: the header and footer are there, with the clear message. */
async function expectUnavailableScreen(page: Page, message: string) {
  await expect(page.getByRole('heading', { level: 1, name: 'Service unavailable' })).toBeVisible();
  await expect(page.getByText(message, { exact: true })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Marketplace' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Try Again' })).toBeVisible();
  await expect(page).toHaveTitle('Service unavailable | AgentMarket');
}

test.describe('error screens', () => {
  test('a failed agent page load answers 503 inside the layout, and Try Again recovers', async ({ page, context }) => {
    await injectFault(context, 'agent');
    const response = await page.goto(SEO_SENTINEL);
    expect(response?.status()).toBe(503);
    await expectUnavailableScreen(page, 'Injected fault: the agent page could not be read.');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expectAccessible(page);

    await clearFault(context);
    await page.getByRole('link', { name: 'Try Again' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'SEO Sentinel' })).toBeVisible();
  });

  test(
    'a failed load on a client-side navigation shows the same screen',
    JAVASCRIPT_ONLY,
    async ({ page, context }) => {
      // client-side navigation needs JavaScript
      await page.goto('/marketplace');
      await injectFault(context, 'agent');
      const load = page.waitForResponse((answer) => answer.url().includes('/agent/') && answer.url().includes('.data'));
      await page.getByRole('article').first().getByRole('link').first().click();
      expect((await load).status()).toBe(503);
      await expectUnavailableScreen(page, 'Injected fault: the agent page could not be read.');
    },
  );

  test(
    'a failed dashboard load keeps the dashboard navigation around the screen',
    SERVER_RENDERED,
    async ({ page, context }) => {
      await signIn(page, 'buyer', '/');
      await injectFault(context, 'dashboard');
      const response = await page.goto('/dashboard');
      expect(response?.status()).toBe(503);
      await expectUnavailableScreen(page, 'Injected fault: the dashboard figures could not be read.');
      await expect(
        page.getByRole('banner').getByLabel(`Account menu for ${DEMO_ACCOUNTS.buyer.username}`),
      ).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Dashboard' }).first()).toBeAttached();

      await clearFault(context);
      await page.getByRole('link', { name: 'Try Again' }).click();
      await expect(page.getByRole('heading', { level: 1, name: /demo_buyer!$/ })).toBeVisible();
    },
  );

  test('a failed profile load answers 503 inside the layout', SERVER_RENDERED, async ({ page, context }) => {
    await signIn(page, 'buyer', '/');
    await injectFault(context, 'profile');
    const response = await page.goto('/profile');
    expect(response?.status()).toBe(503);
    await expectUnavailableScreen(page, 'Injected fault: the profile could not be read.');
    await expect(page.getByRole('banner').getByLabel(`Account menu for ${DEMO_ACCOUNTS.buyer.username}`)).toBeVisible();
  });

  test('a failed action (Confirm purchase) answers 503 with the screen in the order summary', async ({
    page,
    context,
  }) => {
    await signIn(page, 'buyer', SEO_SENTINEL);
    await page.getByRole('link', { name: 'Buy now' }).click();
    const summary = page.getByRole('dialog', { name: 'Order summary' });
    await injectFault(context, 'purchase');
    const post = page.waitForResponse((answer) => answer.request().method() === 'POST');
    await summary.getByRole('button', { name: 'Confirm purchase' }).click();
    expect((await post).status()).toBe(503);
    // The dialog stays, over the agent page, with the screen and its way back.
    await expect(summary.getByRole('heading', { level: 1, name: 'Service unavailable' })).toBeVisible();
    await expect(
      summary.getByText('Injected fault: the agent could not be checked for a purchase.', { exact: true }),
    ).toBeVisible();
    await expect(summary.getByRole('link', { name: 'Try Again' })).toBeVisible();
    await expect(summary.getByRole('link', { name: 'Close' })).toHaveAttribute('href', SEO_SENTINEL);
    await expect(page).toHaveTitle('Service unavailable | AgentMarket');
  });
});

/**
 * Analytics on the commerce server, checked once (in the no-JavaScript run): an anonymous visitor and a new
 * buyer view an agent page, the buyer buys, and the seller's Sales Analytics show one more sale
 * and two more views for that agent (figures read relatively: other specs sell the same seller's
 * other agents). An administrator sees Platform Analytics; a buyer is refused both pages.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, SERVER_RENDERED, test } from '../fixtures';
import { signIn, signInAs, signOut, signUpNewUser, uniqueName } from '../support/accounts';
import { buyFromAgentPage } from '../support/buying';

const CARECRAFT = { email: 'carecraft@demo.test', username: 'carecraft_ai' };
/** One of carecraft_ai's agents that no other spec buys. */
const agent = () => ({ path: '/agent/a0000000-0000-4000-8000-000000000030', name: 'Translation Studio', price: 159 });

const number = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''));

/** The agent's row of Top agents on the seller's analytics page. */
async function agentFigures(page: Page, name: string) {
  await page.goto('/dashboard/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Sales Analytics' })).toBeVisible();
  const row = page
    .getByRole('region', { name: 'Top agents' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) });
  const cells = row.getByRole('cell');
  await expect(cells).toHaveCount(4);
  return {
    sales: number(await cells.nth(0).textContent()),
    revenue: number(await cells.nth(1).textContent()),
    views: number(await cells.nth(2).textContent()),
  };
}

test(
  'a visitor’s and a buyer’s views and the purchase show in the seller’s analytics',
  SERVER_RENDERED,
  async ({ page }) => {
    // figures the server counts; buying with JavaScript is buying.spec.ts's
    const { path, name, price } = agent();
    await signInAs(page, CARECRAFT, '/dashboard/analytics');
    const before = await agentFigures(page, name);
    await signOut(page, CARECRAFT.username);

    // Signed out: one view, however often the page is opened that day.
    await page.goto(path);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    const buyer = await signUpNewUser(page, uniqueName('stats', test.info().project.name));
    await page.goto(path);
    await buyFromAgentPage(page);
    await expect(page.getByText('In your collection', { exact: true })).toBeVisible();
    await signOut(page, buyer);

    await signInAs(page, CARECRAFT, '/dashboard/analytics');
    await expect
      .poll(() => agentFigures(page, name))
      .toEqual({ sales: before.sales + 1, revenue: before.revenue + price, views: before.views + 2 });

    // The chart and, under its disclosure, today's row (UTC) of the same numbers.
    await expect(page.getByRole('img', { name: /^Sales per day/ })).toBeVisible();
    await expect(page.getByRole('img', { name: /^Revenue per day/ })).toBeVisible();
    await page.getByText('Show the numbers per day as a table').click();
    const today = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
      new Date(),
    );
    const todayRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: today, exact: true }) });
    expect(number(await todayRow.getByRole('cell').first().textContent())).toBeGreaterThanOrEqual(1);
    await expect(page.getByRole('region', { name: 'Totals' }).getByText('Conversion', { exact: true })).toBeVisible();
    await expectAccessible(page);
  },
);

test('an administrator sees the platform’s figures per day', SERVER_RENDERED, async ({ page }) => {
  await signIn(page, 'admin', '/dashboard/platform-analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Platform Analytics' })).toBeVisible();
  for (const series of ['New users', 'New sellers', 'New agents', 'Purchases', 'Revenue', 'Active users']) {
    await expect(page.getByRole('img', { name: new RegExp(`^${series} per day`) })).toBeVisible();
  }
  // Each figure says what it counts: totals over the period, distinct users once, a daily average as one.
  const totals = page.getByRole('region', { name: 'Totals' });
  const stat = (label: string) =>
    totals
      .locator('div')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('dd');
  await expect(stat('Purchases (30 days)')).toHaveText(/^\d[\d,]*$/);
  const activeUsers = number(await stat('Active users (30 days)').textContent());
  expect(activeUsers).toBeGreaterThanOrEqual(number(await stat('Active users today').textContent()));
  await expect(stat('Daily active users (average)')).toHaveText(/^\d[\d,]*(\.\d)?$/);
  await expect(page.getByRole('figure').filter({ hasText: /^Active users: / })).toContainText('daily average');
  await expect(page.getByRole('figure').filter({ hasText: /^Purchases: / })).toContainText('in total');
  await page.getByText('Show the numbers per day as a table').click();
  // A header row and the last 30 days.
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(31);
  await expectAccessible(page);
});

test('a buyer is refused both analytics pages', SERVER_RENDERED, async ({ page }) => {
  await signIn(page, 'buyer');
  for (const [path, permission] of [
    ['/dashboard/analytics', 'view_sales_analytics'],
    ['/dashboard/platform-analytics', 'view_admin_analytics'],
  ] as const) {
    expect((await page.goto(path))?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(page.getByText(`You don't have the required permission: ${permission}`)).toBeVisible();
  }
  await expectAccessible(page);
});

/**
 * Membership subscriptions (ADR 018), with JavaScript on and off, on the commerce
 * server with a fresh account: subscribe to Premium through the confirmation page and see the
 * tier and the next billing date; the next purchase costs 10 % less; change to Enterprise with
 * the proration stated; cancel on Billing and see the end date; undo.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, test } from '../fixtures';
import { signUpNewUser, uniqueName } from '../support/accounts';
import { buyFromAgentPage } from '../support/buying';

const money = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);
const dollars = (text: string) => Number(text.replace(/[^0-9.]/g, ''));

/** A figure of a definition list (Membership's figures, the confirmation summary), by its label. */
const figure = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

const tierCard = (page: Page, name: string) =>
  page
    .getByRole('region', { name: 'Membership Tiers' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name }) });

const flash = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test('subscribe to Premium, pay 10% less, change to Enterprise, cancel and undo', async ({ page }) => {
  test.slow(); // one member's whole story, with three accessibility checks
  await signUpNewUser(page, uniqueName('subs', test.info().project.name));
  await page.goto('/dashboard/membership');
  await expect(figure(page, 'Current Tier')).toHaveText('Basic');

  // Upgrade Now → the confirmation page: price, what changes, what is charged today.
  await tierCard(page, 'Premium').getByRole('button', { name: 'Upgrade Now' }).click();
  await expect(page).toHaveURL('/dashboard/membership/confirm?tier=premium');
  await expect(page.getByRole('heading', { level: 1, name: 'Subscribe to Premium' })).toBeVisible();
  await expect(figure(page, 'Price')).toHaveText('$19.00 per month');
  await expect(figure(page, 'Charged today')).toHaveText('$19.00');
  await expect(page.getByText('Your discount on every purchase becomes 10%, starting now.')).toBeVisible();
  await expect(page.getByText('Test mode: no real payment is taken.')).toBeVisible();
  const nextBilling = (await figure(page, 'Next billing date').textContent())!;
  expect(nextBilling).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Confirm and pay $19.00' }).click();
  await expect(page).toHaveURL('/dashboard/membership');
  await expect(flash(page, `You are now on Premium. Next billing date: ${nextBilling}.`)).toBeVisible();
  await expect(figure(page, 'Current Tier')).toHaveText('Premium');
  await expect(figure(page, 'Next Billing Date')).toHaveText(nextBilling);
  await expect(tierCard(page, 'Premium').getByRole('button', { name: 'Current Plan' })).toBeDisabled();

  // The next purchase costs 10% less.
  const agent = `/agent/a0000000-0000-4000-8000-0000000000${isJavaScriptProject() ? '33' : '34'}`;
  await page.goto(agent);
  const price = dollars((await page.getByText(/^Price: \$/).textContent())!);
  const discount = Math.round(price * 100 * 0.1) / 100;
  await expect(page.getByText(`Your Premium price: ${money(price - discount)} (10% member discount)`)).toBeVisible();
  await buyFromAgentPage(page);
  await expect(page.getByText('In your collection', { exact: true })).toBeVisible();
  await page.goto('/dashboard/membership');
  await expect(figure(page, 'Total Spent')).toHaveText(money(price - discount));
  await expect(figure(page, 'Savings Earned')).toHaveText(money(discount));

  // Change to Enterprise: the proration is stated, the billing date stays.
  await tierCard(page, 'Enterprise').getByRole('button', { name: 'Upgrade Now' }).click();
  await expect(page).toHaveURL('/dashboard/membership/confirm?tier=enterprise');
  await expect(page.getByRole('heading', { level: 1, name: 'Change to Enterprise' })).toBeVisible();
  await expect(figure(page, 'Plan')).toHaveText('Premium → Enterprise');
  await expect(figure(page, 'Next billing date')).toHaveText(nextBilling);
  const proration = (await figure(page, 'Charged today').textContent())!;
  expect(dollars(proration)).toBeGreaterThan(0);
  expect(dollars(proration)).toBeLessThanOrEqual(80);
  await expect(
    page.getByText(
      new RegExp(
        `^Proration: \\${proration} is the difference between Enterprise \\(\\$99\\.00\\) and Premium \\(\\$19\\.00\\)`,
      ),
    ),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: `Confirm and pay ${proration}` }).click();
  await expect(flash(page, `You are now on Enterprise. Next billing date: ${nextBilling}.`)).toBeVisible();
  await expect(figure(page, 'Current Tier')).toHaveText('Enterprise');

  // Billing: the real subscription; cancel at the end of the period, then undo.
  await page.goto('/dashboard/billing');
  const subscription = page.getByRole('region', { name: 'Current Subscription' });
  await expect(subscription).toContainText('Enterprise');
  await expect(subscription).toContainText('$99.00 / month');
  await expect(subscription.getByText('Active', { exact: true })).toBeVisible();
  await expect(figure(page, 'Next billing date')).toHaveText(nextBilling);
  await expectAccessible(page);

  await subscription.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(flash(page, `Subscription cancelled. You keep Enterprise until ${nextBilling}.`)).toBeVisible();
  await expect(figure(page, 'Ends on')).toHaveText(nextBilling);
  await expect(subscription).toContainText(`Cancelled: your Enterprise plan ends on ${nextBilling}.`);
  await expect(subscription.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
  await page.goto('/dashboard/membership');
  await expect(figure(page, 'Current Tier')).toHaveText('Enterprise'); // until the end of the period
  await expect(figure(page, 'Plan Ends')).toHaveText(nextBilling);

  await page.goto('/dashboard/billing');
  await subscription.getByRole('button', { name: 'Keep Subscription' }).click();
  await expect(flash(page, `Your Enterprise subscription continues. Next billing date: ${nextBilling}.`)).toBeVisible();
  await expect(figure(page, 'Next billing date')).toHaveText(nextBilling);
  await expect(subscription.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible();
});

test('a plan that cannot be chosen is a clear message, never a charge', async ({ page }) => {
  await signUpNewUser(page, uniqueName('subsno', test.info().project.name));
  const unknown = await page.goto('/dashboard/membership/confirm?tier=gold');
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Plan not found' })).toBeVisible();

  // A forged or stale confirmation: refused with a message on the page.
  await page.goto('/dashboard/membership/confirm?tier=premium');
  const origin = new URL(page.url()).origin;
  const forged = await page.request.post('/dashboard/membership/confirm?tier=premium', {
    form: { intent: 'confirm', tier: 'premium', idempotencyKey: 'not-a-key' },
    headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate' },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain('This form has expired. Please reload the page and try again.');

  await page.getByRole('button', { name: 'Confirm and pay $19.00' }).click();
  await expect(page).toHaveURL('/dashboard/membership');
  const again = await page.goto('/dashboard/membership/confirm?tier=premium');
  expect(again?.status()).toBe(409);
  await expect(page.getByRole('alert')).toHaveText('You are already on this plan.');
  await expect(page.getByRole('button', { name: /^Confirm/ })).toHaveCount(0);
});

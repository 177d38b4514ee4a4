/**
 * Renewals with the clock moved, without JavaScript (the renewal job is the server's; Billing's
 * forms with JavaScript are subscriptions.spec.ts and payment-methods.spec.ts), on the commerce server with
 * a fresh account: a paid renewal moves the billing date and adds its charge to the history; a
 * default card that declines makes the plan past due (the grace period said on Billing); past
 * the grace period the member is back on Basic. The clock is the development door
 * POST /__dev/renewals (ENABLE_DEV_TOOLS, closed in production: mail-and-google.spec.ts), which runs
 * the real renewal job for the signed-in member only, at the given moment.
 */
import type { Page } from '@playwright/test';
import { DAY_MS, GRACE_DAYS } from '~/lib/subscriptions';
import { expect, SERVER_RENDERED, test } from '../fixtures';
import { signUpNewUser, uniqueName } from '../support/accounts';
import { addCard, methods } from '../support/billing';

const subscription = (page: Page) => page.getByRole('region', { name: 'Current Subscription' });
const history = (page: Page) => page.getByRole('region', { name: 'Billing History' });

/** Runs the renewal job as if it were `days` days from now; its report. */
async function renewAt(page: Page, days: number) {
  const response = await page.request.post('/__dev/renewals', {
    form: { at: new Date(Date.now() + days * DAY_MS).toISOString() },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { leased: boolean; renewed: number; pastDue: number; canceled: number };
}

test(
  'a renewal moves the billing date; a declined renewal is past due, then Basic after the grace period',
  SERVER_RENDERED,
  async ({ page }) => {
    test.slow(); // a plan, two cards and three moves of the clock
    await signUpNewUser(page, uniqueName('renew', test.info().project.name));
    await addCard(page, '4242 4242 4242 4242');
    await page.goto('/dashboard/membership/confirm?tier=premium');
    await page.getByRole('button', { name: 'Confirm and pay $19.00' }).click();
    // Paid once the membership page says so: leaving earlier would abandon the submission.
    await expect(page).toHaveURL('/dashboard/membership');
    await page.goto('/dashboard/billing');
    const firstDate = (await subscription(page).textContent()) ?? '';
    await expect(history(page).getByRole('row').filter({ hasText: '$19.00' })).toHaveCount(1);

    // Thirty-two days on: the month is renewed and paid with the Visa.
    expect(await renewAt(page, 32)).toMatchObject({ leased: true, renewed: 1, pastDue: 0, canceled: 0 });
    await page.goto('/dashboard/billing');
    await expect(subscription(page)).toContainText('Premium');
    await expect(subscription(page)).toContainText('Next billing date');
    expect(await subscription(page).textContent()).not.toBe(firstDate);
    await expect(history(page).getByRole('row').filter({ hasText: 'renewal' })).toHaveCount(1);
    await expect(history(page).getByRole('row').filter({ hasText: 'renewal' })).toContainText('Visa •••• 4242');

    // The default card now declines every charge: the next renewal leaves the plan past due.
    await addCard(page, '4000 0000 0000 0341');
    await methods(page).getByRole('button', { name: 'Make Default Visa ending in 0341' }).click();
    await expect(methods(page).getByRole('listitem').filter({ hasText: 'Visa •••• 0341' })).toContainText('Default');
    expect(await renewAt(page, 64)).toMatchObject({ renewed: 0, pastDue: 1, canceled: 0 });
    await page.goto('/dashboard/billing');
    await expect(subscription(page)).toContainText('Payment due since');
    await expect(subscription(page)).toContainText(`grace period of ${GRACE_DAYS} days`);
    await expect(history(page).getByRole('row').filter({ hasText: 'Failed' })).toHaveCount(1);
    await expect(subscription(page)).toContainText('Premium');

    // Past the grace period without a payment: the plan ends, the member is on Basic.
    expect(await renewAt(page, 64 + GRACE_DAYS + 1)).toMatchObject({ canceled: 1 });
    await page.goto('/dashboard/billing');
    await expect(subscription(page)).toContainText('Basic');
    await expect(subscription(page)).toContainText('$0.00 / month');
  },
);

test('the clock door answers only a signed-in member and a real date', async ({ page }) => {
  test.skip(test.info().project.name !== 'commerce-js', 'no browser involved: one run is enough');
  expect((await page.request.post('/__dev/renewals', { form: { at: new Date().toISOString() } })).status()).toBe(401);
  await signUpNewUser(page, uniqueName('clock', test.info().project.name));
  expect((await page.request.post('/__dev/renewals', { form: { at: 'yesterday-ish' } })).status()).toBe(400);
  expect((await page.request.get('/__dev/renewals')).status()).toBe(404);
});

import { expect, type Page } from '@playwright/test';

/** A card expiry two years ahead (MM/YY), and its year. */
export const YEAR = new Date().getUTCFullYear() + 2;
export const EXPIRY = `12/${String(YEAR).slice(-2)}`;

/** Billing's Payment Methods panel. */
export const methods = (page: Page) => page.getByRole('region', { name: 'Payment Methods' });

/** Adds a card through Billing's Add Payment Method page (a test number: the test-mode provider). */
export async function addCard(page: Page, number: string, expiry = EXPIRY, cvc = '123') {
  await page.goto('/dashboard/billing');
  await methods(page).getByRole('link', { name: 'Add Payment Method' }).click();
  await expect(page).toHaveURL('/dashboard/billing/payment-methods/new');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date (MM/YY)').fill(expiry);
  await page.getByLabel('Security code (CVC)').fill(cvc);
  await page.getByRole('button', { name: 'Save Card' }).click();
}

import type { Page } from '@playwright/test';

/** The order summary: a dialog over the agent page with JavaScript, the page itself without. */
export const orderSummary = (page: Page) => page.getByRole('dialog', { name: 'Order summary' });

/**
 * Buys the agent whose page is open, as a buyer does: Buy now opens the order summary, and
 * Confirm purchase there is what charges.
 */
export async function buyFromAgentPage(page: Page) {
  await page.getByRole('link', { name: 'Buy now' }).click();
  await orderSummary(page).getByRole('button', { name: 'Confirm purchase' }).click();
}

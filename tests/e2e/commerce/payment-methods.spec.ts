/**
 * Saved payment methods, with JavaScript on and off, on the commerce server with a
 * fresh account: add a Visa (the Default badge), add a Mastercard and remove it, edit an
 * expiry, the declined test card is refused with the provider's message (and the number never
 * comes back in the page), and a default card that declines every charge leaves the plan on
 * Basic with a clear message.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from '../fixtures';
import { signUpNewUser, uniqueName } from '../support/accounts';
import { addCard, EXPIRY, methods, YEAR } from '../support/billing';

const DECLINED = 'Your card was declined.';

const card = (page: Page, label: string) => methods(page).getByRole('listitem').filter({ hasText: label });
const flash = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test('add, make default, edit and remove saved cards; declined cards are refused', async ({ page }) => {
  test.slow(); // one member's cards, a plan charge, two accessibility checks
  await signUpNewUser(page, uniqueName('cards', test.info().project.name));
  await page.goto('/dashboard/billing');
  await expect(methods(page)).toContainText('No saved payment methods yet.');
  await expect(page.getByText('Sample data')).toHaveCount(0);

  // The form: each field labelled, with the browser's card autocomplete.
  await methods(page).getByRole('link', { name: 'Add Payment Method' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add Payment Method' })).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveAttribute('autocomplete', 'cc-number');
  await expect(page.getByLabel('Expiry date (MM/YY)')).toHaveAttribute('autocomplete', 'cc-exp');
  await expect(page.getByLabel('Security code (CVC)')).toHaveAttribute('autocomplete', 'cc-csc');
  await expectAccessible(page);

  // The declined test card: the provider's message; the number and the CVC never come back.
  await addCard(page, '4000 0000 0000 0002', EXPIRY, '987');
  await expect(page.getByRole('alert').filter({ hasText: DECLINED }).first()).toBeVisible();
  // The page without its inlined stylesheet (whose colours may hold any digits).
  const html = (await page.content()).replace(/<style[\s\S]*?<\/style>/g, '');
  expect(html).not.toMatch(/4000 ?0000 ?0000 ?0002/);
  expect(html).not.toContain('987');
  await expect(page.getByLabel('Expiry date (MM/YY)')).toHaveValue(EXPIRY);
  // The server's answer itself, as a document POST.
  const direct = await page.request.post('/dashboard/billing/payment-methods/new', {
    form: { cardNumber: '4000000000000002', expiry: EXPIRY, cvc: '987' },
    headers: { Origin: new URL(page.url()).origin, 'Sec-Fetch-Site': 'same-origin' },
    maxRedirects: 0,
  });
  expect(direct.status()).toBe(402);
  const body = (await direct.text()).replace(/<style[\s\S]*?<\/style>/g, '');
  expect(body).toContain(DECLINED);
  expect(body).not.toContain('4000000000000002');
  expect(body).not.toContain('987');

  // A Visa: the first card is the default (no Remove); a Mastercard is not, and can be removed.
  await addCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL('/dashboard/billing');
  await expect(flash(page, 'Visa •••• 4242 was added as your default payment method.')).toBeVisible();
  await expect(card(page, 'Visa •••• 4242').getByText('Default', { exact: true })).toBeVisible();
  await expect(card(page, 'Visa •••• 4242')).toContainText(`Expires 12/${YEAR}`);
  await expect(methods(page).getByRole('button', { name: 'Remove Visa ending in 4242' })).toHaveCount(0);

  await addCard(page, '5555555555554444');
  await expect(flash(page, 'Mastercard •••• 4444 was added.')).toBeVisible();
  await expect(card(page, 'Mastercard •••• 4444').getByText('Default', { exact: true })).toHaveCount(0);
  await expectAccessible(page);
  await methods(page).getByRole('button', { name: 'Remove Mastercard ending in 4444' }).click();
  await expect(flash(page, 'Mastercard •••• 4444 was removed.')).toBeVisible();
  await expect(card(page, 'Mastercard •••• 4444')).toHaveCount(0);

  // Edit: the expiry, in the card's row; a past date is refused, a future one saved.
  await methods(page).getByRole('link', { name: 'Edit Visa ending in 4242' }).click();
  const expiry = methods(page).getByLabel('New expiry date of Visa •••• 4242 (MM/YY)');
  await expiry.fill('01/20');
  await methods(page).getByRole('button', { name: 'Save Expiry' }).click();
  await expect(card(page, 'Visa •••• 4242')).toContainText('This expiry date has passed.');
  await expiry.fill(`03/${String(YEAR + 3).slice(-2)}`);
  await methods(page).getByRole('button', { name: 'Save Expiry' }).click();
  await expect(flash(page, `Visa •••• 4242 now expires 03/${YEAR + 3}.`)).toBeVisible();
  await expect(card(page, 'Visa •••• 4242')).toContainText(`Expires 03/${YEAR + 3}`);

  // A card that declines every charge, made the default: Upgrade to Premium is declined.
  await addCard(page, '4000000000000341');
  await expect(flash(page, 'Visa •••• 0341 was added.')).toBeVisible();
  await methods(page).getByRole('button', { name: 'Make Default Visa ending in 0341' }).click();
  await expect(flash(page, 'Visa •••• 0341 is now your default payment method.')).toBeVisible();
  await expect(card(page, 'Visa •••• 0341').getByText('Default', { exact: true })).toBeVisible();
  await expect(methods(page).getByRole('button', { name: 'Remove Visa ending in 4242' })).toBeVisible();

  await page.goto('/dashboard/membership/confirm?tier=premium');
  await page.getByRole('button', { name: 'Confirm and pay $19.00' }).click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'The payment did not go through. Nothing was charged and your plan is unchanged.' }),
  ).toBeVisible();
  await page.goto('/dashboard/billing');
  await expect(page.getByRole('region', { name: 'Current Subscription' })).toContainText('Basic');
});

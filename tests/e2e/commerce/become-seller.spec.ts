/**
 * Becoming a seller, with JavaScript on and off, on the commerce server: a fresh
 * buyer fills the form, gets the errors beside their fields with what they typed kept, then
 * becomes a seller at once (no new sign-in: the viewer cache is forgotten) and has a storefront.
 * Signed out, the page invites to sign up as a seller; a seller posting the form is refused.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from '../fixtures';
import { signIn, signUpNewUser, uniqueName } from '../support/accounts';

const TERMS_ERROR = 'Please accept the seller terms to continue.';

const dashboardAside = (page: Page) =>
  page.getByRole('complementary').filter({ has: page.getByRole('navigation', { name: 'Dashboard' }) });

test('a buyer becomes a seller: errors beside the fields, then the seller tools and a storefront at once', async ({
  page,
}) => {
  test.slow(); // a sign-up, two forms and axe twice in two themes: a long journey on a busy machine
  const username = await signUpNewUser(page, uniqueName('sell', test.info().project.name));
  const displayName = `Agents by ${username}`;
  const pitch = 'Practical agents for small online shops.\nSupport within a day.';

  await page.goto('/become-seller');
  await expect(page.getByRole('heading', { name: 'How selling works' })).toBeVisible();
  await expect(
    page.getByText('AgentMarket keeps 10% of each sale; you keep the rest.', { exact: false }),
  ).toBeVisible();
  const form = page.locator('form[action="/become-seller"]');
  await expectAccessible(page);

  await form.getByLabel('Display name (optional)').fill(displayName);
  await form.getByLabel('Short pitch (optional)').fill(pitch);
  await form.getByLabel('Typical response time').selectOption({ label: 'Within 8 hours' });
  await form.getByRole('button', { name: 'Become a seller' }).click();

  // Refused: the message beside the box, everything typed still there.
  const terms = form.getByLabel('I accept the seller terms');
  await expect(terms).toHaveAccessibleDescription(new RegExp(`${TERMS_ERROR}$`));
  await expect(terms).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Display name (optional)')).toHaveValue(displayName);
  await expect(form.getByLabel('Short pitch (optional)')).toHaveValue(pitch);
  await expect(form.getByLabel('Typical response time')).toHaveValue('8');
  await expectAccessible(page);

  await terms.check();
  await form.getByRole('button', { name: 'Become a seller' }).click();
  await expect(page).toHaveURL(/\/dashboard\/agents$/);
  await expect(
    page.getByRole('status').filter({ hasText: `Welcome, ${displayName}! You are now a seller.` }),
  ).toBeVisible();
  // The seller's section opened (not Access Denied) and the dashboard names the new role.
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toHaveCount(0);
  await expect(dashboardAside(page).getByText('Seller', { exact: true })).toBeVisible();
  await expect(dashboardAside(page).getByRole('link', { name: 'Upload Agent' })).toBeVisible();

  // The page now says so, without the form.
  await page.goto('/become-seller');
  await expect(page.getByRole('heading', { name: 'You are already a seller' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to My AI Agents' })).toHaveAttribute('href', '/dashboard/agents');
  await expect(page.locator('form[action="/become-seller"]')).toHaveCount(0);

  // The storefront shows the details typed, and no agents yet.
  await page.goto(`/sellers/${username}`);
  await expect(page.getByRole('heading', { level: 1, name: displayName })).toBeVisible();
  await expect(page.getByText('Practical agents for small online shops.')).toBeVisible();
  await expect(page.getByText(/^@.+ · Member since /)).toContainText(`@${username}`);
  await expect(page.getByText('No agents yet')).toBeVisible();
});

test('signed out, the page explains selling (the fee, as on /pricing) and invites to sign up as a seller', async ({
  page,
}) => {
  await page.goto('/become-seller');
  await expect(page.getByRole('heading', { name: 'How selling works' })).toBeVisible();
  await expect(page.locator('form[action="/become-seller"]')).toHaveCount(0);
  const signUp = page.getByRole('link', { name: 'Sign up as a seller' });
  await expect(signUp).toHaveAttribute('href', '/become-seller?auth=sign-up&accountType=seller');
  await expectAccessible(page);
  await signUp.click();
  await expect(page.getByRole('radio', { name: 'Seller' })).toBeChecked();

  // The same rate, from the one module, on the pricing page.
  await page.goto('/pricing');
  await expect(page.getByText('AgentMarket keeps a platform fee of 10% of each sale', { exact: false })).toBeVisible();
});

test('a seller posting the form is refused and stays a seller with their details', async ({ page }) => {
  await signIn(page, 'seller', '/become-seller');
  await expect(page.getByRole('heading', { name: 'You are already a seller' })).toBeVisible();
  const origin = new URL(page.url()).origin;
  const response = await page.request.post('/become-seller', {
    form: { displayName: 'Forged', responseTimeHours: '1', acceptTerms: 'on' },
    headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(409);
  await page.goto('/sellers/demo_seller');
  await expect(page.getByRole('heading', { level: 1, name: 'demo_seller' })).toBeVisible();
});

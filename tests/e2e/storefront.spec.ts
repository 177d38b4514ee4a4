/**
 * Storefronts, read-only on the seeded data: demo_seller's page shows who they are,
 * their figures and their published agents; seller names on cards and on the agent page lead
 * there; unknown usernames and buyers are a 404. demo_seller's profile is members only (issue
 * #13), so these run signed in as demo_buyer (tests/e2e/commerce/privacy.spec.ts covers the rest).
 */
import { expect, expectAccessible, SERVER_RENDERED, test } from './fixtures';
import { signIn } from './support/accounts';

test.beforeEach(async ({ page }) => {
  await signIn(page, 'buyer', '/marketplace');
});

const CAMPAIGN_PILOT = '/agent/a0000000-0000-4000-8000-000000000001'; // demo_seller's

test(
  'the storefront of demo_seller shows the seller, the figures and the published agents',
  SERVER_RENDERED,
  async ({ page }) => {
    const response = await page.goto('/sellers/demo_seller');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('demo_seller (demo_seller) | AgentMarket');
    await expect(page.getByRole('heading', { level: 1, name: 'demo_seller' })).toBeVisible();
    await expect(page.getByText(/^Member since [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();

    const figure = (label: string) => page.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) });
    await expect(figure('Agents').locator('dd')).toHaveText('12');
    await expect(figure('Total sales').locator('dd')).toHaveText(/^[1-9]\d*$/);
    await expect(figure('Average rating').locator('dd')).toHaveText(/^[1-5]\.\d \(\d+ reviews?\)$/);

    const agents = page.getByRole('region', { name: 'Agents by demo_seller' }).getByRole('article');
    await expect(agents).toHaveCount(12);
    await expect(agents.getByRole('link', { name: 'CampaignPilot' })).toHaveAttribute('href', CAMPAIGN_PILOT);
    // Drafts and archived agents are not on sale.
    await expect(page.getByText('Cold Call Trainer')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
    await expectAccessible(page);
  },
);

test('seller names link to the storefront: on the agent page and on the cards', SERVER_RENDERED, async ({ page }) => {
  await page.goto(CAMPAIGN_PILOT);
  await expect(page.getByText('Sold by demo_seller')).toBeVisible();
  await page.getByRole('link', { name: 'demo_seller', exact: true }).click();
  await expect(page).toHaveURL(/\/sellers\/demo_seller$/);
  await expect(page.getByRole('heading', { level: 1, name: 'demo_seller' })).toBeVisible();

  await page.goto('/marketplace?q=CampaignPilot');
  const card = page.getByRole('article').filter({ has: page.getByRole('link', { name: 'CampaignPilot' }) });
  await card.getByRole('link', { name: 'demo_seller' }).click();
  await expect(page).toHaveURL(/\/sellers\/demo_seller$/);
});

test('unknown usernames, buyers and odd pages', SERVER_RENDERED, async ({ page }) => {
  for (const path of ['/sellers/nobody_by_that_name', '/sellers/demo_buyer', '/sellers/not.a.name']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Seller not found' })).toBeVisible();
  }
  for (const query of ['?page=abc', '?page=9']) {
    await page.goto(`/sellers/demo_seller${query}`);
    await expect(page).toHaveURL(/\/sellers\/demo_seller$/);
  }
});

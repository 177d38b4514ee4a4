/**
 * The agent page /agent/:agentId with JavaScript on and off. Expected values are seed facts
 * (supabase/seed.sql, docs/database.md): agent n has id a0000000-0000-4000-8000-<n, 12 digits>.
 */
import { expect, expectAccessible, JAVASCRIPT_ONLY, SERVER_RENDERED, test } from './fixtures';
import { signIn } from './support/accounts';

function agentPath(n: number): string {
  return `/agent/a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

// CampaignPilot (agent 1): demo_seller's, $149, 4 reviews (5★ ×2, 3★ ×2), 4 completed purchases;
// demo_buyer owns it and reviewed it first (the oldest review).
const CAMPAIGN_PILOT = agentPath(1);
// SEO Sentinel (agent 2): nova_labs', $99; demo_buyer does not own it.
const SEO_SENTINEL = agentPath(2);
// Agent 8 (Influencer Matchmaker): demo_buyer's purchase of it failed, so it is not owned.
const INFLUENCER_MATCHMAKER = agentPath(8);
const DRAFT = agentPath(73); // demo_seller's draft 'Referral Engine (beta)'
const ARCHIVED = agentPath(75); // 'Cold Call Trainer', archived, bought by demo_buyer

test.describe('agent page', () => {
  test('a published agent shows its details, rating and reviews', SERVER_RENDERED, async ({ page }) => {
    const response = await page.goto(CAMPAIGN_PILOT);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('CampaignPilot | AgentMarket');
    await expect(page.getByRole('heading', { level: 1, name: 'CampaignPilot' })).toBeVisible();
    await expect(page.getByText('Price: $149', { exact: true })).toBeVisible();
    await expect(page.getByText('4 purchases', { exact: true })).toBeVisible();
    await expect(page.getByText('Sold by demo_seller')).toBeVisible();
    await expect(page.getByRole('img', { name: 'CampaignPilot screenshot 1' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'CampaignPilot screenshot 2' })).toBeVisible();
    // The first row under the main picture is in the first screen: never loaded lazily.
    await expect(page.getByRole('img', { name: 'CampaignPilot screenshot 2' })).not.toHaveAttribute('loading', 'lazy');

    const category = page.getByRole('link', { name: 'Marketing', exact: true }).last();
    await expect(category).toHaveAttribute('href', '/marketplace?category=marketing');

    const features = page.getByRole('region', { name: 'Features' }).getByRole('listitem');
    await expect(features).toHaveText([
      'Cross-channel budget pacing',
      'Daily bid and budget reallocation',
      'Audience segment suggestions',
      'Weekly performance digest',
      'Google Ads and Meta connectors',
    ]);

    const reviews = page.getByRole('region', { name: 'Ratings and reviews' });
    await expect(reviews.getByText('4.0', { exact: true })).toBeVisible();
    await expect(reviews.getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();
    await expect(reviews.getByText('4 reviews', { exact: true })).toBeVisible();
    for (const line of [
      '5 stars: 2 reviews',
      '4 stars: 0 reviews',
      '3 stars: 2 reviews',
      '2 stars: 0 reviews',
      '1 star: 0 reviews',
    ]) {
      await expect(reviews.getByText(line, { exact: true })).toBeAttached();
    }

    const items = reviews.getByRole('article');
    await expect(items).toHaveCount(4);
    // Newest first: demo_buyer's review is the oldest one.
    const last = items.last();
    await expect(last).toHaveAccessibleName('Review by demo_buyer');
    await expect(last.getByRole('img', { name: 'Rated 5 out of 5' })).toBeVisible();
    await expect(last).toContainText('CampaignPilot took over our weekly budget shuffling');
    await expect(last.locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    // Four reviews fit on one page: no page links.
    await expect(page.getByRole('navigation', { name: 'Review pages' })).toHaveCount(0);

    // What is inside the latest version, from its package (supabase/demo-packages.ts builds it).
    const inside = page.getByRole('region', { name: "What's inside" });
    await expect(inside.getByText('cross_channel_budget_pacing', { exact: true })).toBeVisible();
    await expect(inside.getByText('any chat model with tool calling', { exact: true })).toBeVisible();
    await expect(inside.getByRole('list', { name: 'Example conversation' }).getByRole('listitem')).toHaveCount(2);

    await expectAccessible(page);
  });

  test('link previews get Open Graph tags with absolute URLs', SERVER_RENDERED, async ({ page, baseURL }) => {
    await page.goto(CAMPAIGN_PILOT);
    const og = (property: string) => page.locator(`meta[property="${property}"]`);
    await expect(og('og:title')).toHaveAttribute('content', 'CampaignPilot | AgentMarket');
    await expect(og('og:type')).toHaveAttribute('content', 'product');
    await expect(og('og:description')).toHaveAttribute('content', /^Plans, launches and tunes multi-channel/);
    // The agent's own generated picture (category, id, name), served as an SVG.
    await expect(og('og:image')).toHaveAttribute(
      'content',
      new RegExp(`^${baseURL}/artwork/marketing/\\d{12}/CampaignPilot\\.svg$`),
    );
    const picture = await page.request.get((await og('og:image').getAttribute('content'))!);
    expect(picture.status()).toBe(200);
    expect(picture.headers()['content-type']).toBe('image/svg+xml');
    expect(await picture.text()).toContain('<title id="t">CampaignPilot: Marketing agent</title>');
    expect((await page.request.get('/artwork/marketing/1/%3Cb%3E.svg')).status()).toBe(404);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description?.length).toBeLessThanOrEqual(155);
  });

  test('review pages past the end or malformed fall back to a real page', SERVER_RENDERED, async ({ page }) => {
    for (const query of ['?reviewsPage=9', '?reviewsPage=abc', '?reviewsPage=-1']) {
      const response = await page.goto(`${CAMPAIGN_PILOT}${query}`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('region', { name: 'Ratings and reviews' }).getByRole('article')).toHaveCount(4);
    }
  });

  test(
    'an agent without reviews has no rating (not five stars) and an empty state',
    SERVER_RENDERED,
    async ({ page }) => {
      await page.goto(agentPath(7)); // Brand Voice Guardian: no purchases, no reviews
      const reviews = page.getByRole('region', { name: 'Ratings and reviews' });
      await expect(reviews.getByText('No reviews yet', { exact: true })).toBeVisible();
      await expect(reviews.getByText('5.0', { exact: true })).toHaveCount(0);
      await expect(reviews.getByRole('img', { name: /^Rated / })).toHaveCount(0);
      await expect(reviews.getByText('0 reviews', { exact: true })).toBeVisible();
      await expect(reviews.getByText(/can leave the first review/)).toBeVisible();
      await expect(page.getByText('0 purchases', { exact: true })).toBeVisible();
    },
  );

  test('an anonymous visitor is asked to sign in before buying', async ({ page }) => {
    await page.goto(SEO_SENTINEL);
    await page.getByRole('link', { name: 'Buy now' }).click();
    // Signed in, they land on the order summary.
    await expect(page).toHaveURL(
      `${SEO_SENTINEL}?${new URLSearchParams({ auth: 'sign-in', redirectTo: `${SEO_SENTINEL}/checkout` })}`,
    );
    await expect(page.getByRole('dialog', { name: 'Welcome back' })).toBeVisible();
  });

  test(
    'the demo buyer sees their collection on an owned agent and Buy on others',
    SERVER_RENDERED,
    async ({ page }) => {
      await signIn(page, 'buyer', CAMPAIGN_PILOT);
      await expect(page).toHaveURL(CAMPAIGN_PILOT);
      await expect(page.getByText('In your collection')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Download', exact: true })).toHaveAttribute(
        'href',
        `${CAMPAIGN_PILOT}/download`,
      );
      await expect(page.getByRole('link', { name: 'Buy now' })).toHaveCount(0);

      // A failed purchase is no ownership.
      await page.goto(INFLUENCER_MATCHMAKER);
      await expect(page.getByRole('link', { name: 'Buy now' })).toBeVisible();
      await expect(page.getByText('In your collection')).toHaveCount(0);

      // Buying itself is tests/e2e/commerce/buying.spec.ts (its own server): the demo data stays as seeded.
      await page.goto(SEO_SENTINEL);
      await expect(page.getByText('In your collection')).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Buy now' })).toBeVisible();
      await expect(page.getByText('Test mode: no real payment is taken. Purchases complete at once.')).toBeVisible();
      await expectAccessible(page);
    },
  );

  test('the demo buyer still sees an archived agent they own', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'buyer', ARCHIVED);
    await expect(page.getByRole('heading', { level: 1, name: 'Cold Call Trainer' })).toBeVisible();
    await expect(page.getByText('Archived: this agent is no longer on sale.')).toBeVisible();
    await expect(page.getByText('In your collection')).toBeVisible();
  });

  test('the seller sees Edit on their agent and can open their own draft', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'seller', CAMPAIGN_PILOT);
    await expect(page.getByRole('link', { name: 'Edit agent' })).toHaveAttribute(
      'href',
      `/dashboard/agents/${CAMPAIGN_PILOT.split('/').at(-1)}/edit`,
    );
    await expect(page.getByRole('link', { name: 'Buy now' })).toHaveCount(0);

    const response = await page.goto(DRAFT);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Referral Engine (beta)' })).toBeVisible();
    await expect(page.getByText(/^Draft: only you and administrators/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit agent' })).toBeVisible();
    await expectAccessible(page);
  });

  test('an administrator can open any draft', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'admin', DRAFT);
    await expect(page.getByRole('heading', { level: 1, name: 'Referral Engine (beta)' })).toBeVisible();
    await expect(page.getByText('This agent is not on sale.')).toBeVisible();
  });

  test(
    'drafts, archived, unknown and malformed ids answer 404 with a helpful page',
    SERVER_RENDERED,
    async ({ page }) => {
      for (const path of [
        DRAFT,
        ARCHIVED,
        agentPath(999),
        '/agent/not-a-uuid',
        '/agent/12345',
        "/agent/1'%20or%201=1",
      ]) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(404);
        await expect(page).toHaveTitle('Agent not found | AgentMarket');
        await expect(page.getByRole('heading', { level: 1, name: 'Agent not found' })).toBeVisible();
        await expect(page.getByText(/Browse the marketplace to find another agent/)).toBeVisible();
        await expect(page.getByRole('main').getByRole('link', { name: 'Browse the marketplace' })).toHaveAttribute(
          'href',
          '/marketplace',
        );
      }
      await expectAccessible(page);
    },
  );

  test('paging links and client navigation keep working', JAVASCRIPT_ONLY, async ({ page }) => {
    // client-side navigation only
    await page.goto('/');
    await page.goto(CAMPAIGN_PILOT);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Marketplace' }).click();
    await expect(page).toHaveURL(/\/marketplace$/);
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'CampaignPilot' })).toBeVisible();
    const inside = page.getByRole('region', { name: "What's inside" });
    await expect(inside.getByText('cross_channel_budget_pacing', { exact: true })).toBeVisible();
    await expect(inside.getByText('any chat model with tool calling', { exact: true })).toBeVisible();
  });
});

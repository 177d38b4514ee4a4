import type { Page } from '@playwright/test';
import { MAX_PRICE } from '../../app/lib/marketplace-params';
import { expect, expectAccessible, isJavaScriptProject, JAVASCRIPT_ONLY, SERVER_RENDERED, test } from './fixtures';

const cards = (page: Page) => page.getByRole('region', { name: 'Results' }).getByRole('article');

/** After a client-side navigation the skeletons give way to results. */
async function settled(page: Page) {
  await expect(page.getByRole('list', { name: 'Loading agents' })).toHaveCount(0);
}

async function prices(page: Page): Promise<number[]> {
  await settled(page);
  const texts = await cards(page).getByTestId('agent-price').allTextContents();
  return texts.map((text) => Number(text.replace('$', '')));
}

/** Each card's rating, 0 for an agent nobody has rated ("No reviews yet", no stars). */
async function ratings(page: Page): Promise<number[]> {
  await settled(page);
  return cards(page).evaluateAll((nodes) =>
    nodes.map((node) => {
      const label = node.querySelector('[aria-label^="Rated "]')?.getAttribute('aria-label');
      if (label) return Number(/Rated ([\d.]+)/.exec(label)?.[1]);
      return node.textContent?.includes('No reviews yet') ? 0 : Number.NaN;
    }),
  );
}

async function resultLine(page: Page) {
  await settled(page);
  const text =
    (await page
      .getByRole('status')
      .filter({ hasText: /^Showing/ })
      .textContent()) ?? '';
  const [, shown, total] = /Showing (\d+) of (\d+) agents/.exec(text) ?? [];
  return { shown: Number(shown), total: Number(total) };
}

function isSorted(values: number[], direction: 'asc' | 'desc') {
  return values.every(
    (value, index) => index === 0 || (direction === 'asc' ? values[index - 1]! <= value : values[index - 1]! >= value),
  );
}

async function choose(page: Page, group: string, option: string | RegExp) {
  const fieldset = page.getByRole('group', { name: group });
  await fieldset.getByText(option).click();
  if (!isJavaScriptProject()) await page.getByRole('button', { name: 'Apply' }).click();
}

test.describe('marketplace', () => {
  test('lists published agents with the heading, result line and paging', async ({ page }) => {
    await page.goto('/marketplace');
    await expect(
      page.getByText(/^Discover \d+ professional AI agents ready to transform your business$/),
    ).toBeVisible();
    await expect(page.getByPlaceholder('Search for AI agents, categories, or creators...')).toBeVisible();
    const { shown, total } = await resultLine(page);
    expect(shown).toBe(24);
    expect(total).toBeGreaterThanOrEqual(60);
    await expect(cards(page)).toHaveCount(24);
    // The first row's pictures hold the largest paint: requested at once and ahead of the others
    // (they waited behind the scripts on a throttled phone otherwise, ADR 029); the rest lazily.
    const pictures = page.getByRole('region', { name: 'Results' }).getByRole('img', { name: / thumbnail$/ });
    for (const first of [0, 2]) {
      await expect(pictures.nth(first)).toHaveAttribute('fetchpriority', 'high');
      await expect(pictures.nth(first)).toHaveAttribute('loading', 'eager');
    }
    await expect(pictures.nth(3)).toHaveAttribute('loading', 'lazy');
    await expect(pictures.nth(3)).not.toHaveAttribute('fetchpriority', 'high');
    await expectAccessible(page);

    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/\/marketplace\?page=2$/);
    await expect(cards(page)).toHaveCount(24);
    const lastPage = Math.ceil(total / 24);
    await page.goto(`/marketplace?page=${lastPage}`);
    expect((await resultLine(page)).shown).toBe(total - (lastPage - 1) * 24);
  });

  test('filters by category with counts under the other filters', async ({ page }) => {
    await page.goto('/marketplace');
    const categories = page.getByRole('group', { name: 'Categories' });
    const salesLabel = categories.locator('label', { hasText: 'Sales' });
    const salesCount = Number(await salesLabel.locator('span').last().textContent());
    await choose(page, 'Categories', 'Sales');
    await expect(page).toHaveURL(/\/marketplace\?category=sales$/);
    expect((await resultLine(page)).total).toBe(salesCount);
    await settled(page);
    for (const text of await cards(page).allTextContents()) expect(text).toContain('Sales');
  });

  test(
    'shows ten skeleton cards while a slow filter change loads, then the results',
    JAVASCRIPT_ONLY,
    async ({ page }) => {
      // without JavaScript the browser loads the next page itself
      await page.goto('/marketplace');
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/marketplace\.data\?category=finance(&|$)/, async (route) => {
        await held;
        await route.continue();
      });
      await choose(page, 'Categories', 'Finance');
      const skeleton = page.getByRole('list', { name: 'Loading agents' });
      await expect(skeleton.getByTestId('skeleton-card')).toHaveCount(10);
      await expect(cards(page)).toHaveCount(0);
      release();
      await expect(skeleton).toHaveCount(0);
      await expect(page).toHaveURL(/\/marketplace\?category=finance$/);
      for (const text of await cards(page).allTextContents()) expect(text).toContain('Finance');
      expect(await cards(page).count()).toBeGreaterThan(0);
    },
  );

  test('keeps a price chosen while another filter is still loading', JAVASCRIPT_ONLY, async ({ page }) => {
    // without JavaScript every change is its own page load
    await page.goto('/marketplace');
    // The Sales page's data is held until the slider has moved, so that it arrives while the
    // slider's value waits its 300 ms to be sent.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let requested = () => {};
    const seen = new Promise<void>((resolve) => (requested = resolve));
    await page.route(/\/marketplace\.data\?category=sales(&|$)/, async (route) => {
      requested();
      await held;
      await route.continue();
    });
    await choose(page, 'Categories', 'Sales');
    await seen;
    const slider = page.locator('#max-price');
    await slider.focus();
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowLeft');
    const chosen = await slider.inputValue();
    expect(Number(chosen)).toBe(MAX_PRICE - 3);
    release();
    await expect(page).toHaveURL(new RegExp(`\\?category=sales&maxPrice=${chosen}$`));
    await expect(slider).toHaveValue(chosen);
    expect(Math.max(...(await prices(page)))).toBeLessThanOrEqual(Number(chosen));
  });

  test('filters by maximum price and minimum rating, bounds inclusive', async ({ page }) => {
    await page.goto('/marketplace?maxPrice=99&minRating=4');
    const { total } = await resultLine(page);
    expect(total).toBeGreaterThan(0);
    for (const price of await prices(page)) expect(price).toBeLessThanOrEqual(99);
    for (const rating of await ratings(page)) expect(rating).toBeGreaterThanOrEqual(4);
    await choose(page, 'Minimum Rating', '4.5+ Stars');
    await expect(page).toHaveURL(/minRating=4.5/);
    for (const rating of await ratings(page)) expect(rating).toBeGreaterThanOrEqual(4.5);
  });

  for (const [sort, read, direction] of [
    ['price-low', prices, 'asc'],
    ['price-high', prices, 'desc'],
    ['rating', ratings, 'desc'],
  ] as const) {
    test(`sorts by ${sort}`, async ({ page }) => {
      await page.goto('/marketplace');
      await page.getByLabel('Sort by').selectOption(sort);
      if (!isJavaScriptProject()) await page.getByRole('button', { name: 'Apply' }).click();
      await expect(page).toHaveURL(new RegExp(`/marketplace\\?sort=${sort}$`));
      await expect(cards(page)).toHaveCount(24);
      // With JavaScript the previous page's 24 cards stay until the new ones arrive: read until
      // the list is the sorted one (or the wait runs out).
      await expect
        .poll(async () => {
          const values = await read(page);
          return values.length === 24 && isSorted(values, direction);
        })
        .toBe(true);
    });
  }

  test(
    'an agent nobody has rated says No reviews yet and comes after every rated one',
    SERVER_RENDERED,
    async ({ page }) => {
      await page.goto('/marketplace?sort=rating&page=3'); // the last page of 72 agents
      const values = await ratings(page);
      expect(values.length).toBeGreaterThan(0);
      expect(values).not.toContain(Number.NaN);
      expect(isSorted(values, 'desc')).toBe(true);
      expect(values.at(-1)).toBe(0);
      const unrated = cards(page).filter({ hasText: 'No reviews yet' }).last();
      await expect(unrated.getByLabel(/^Rated /)).toHaveCount(0);
      await expect(unrated).not.toContainText('5.0');
    },
  );

  test('searches words in any order, best match first, and combines every filter', async ({ page }) => {
    await page.goto('/marketplace');
    const search = page.getByPlaceholder('Search for AI agents, categories, or creators...');
    await search.fill('SUPPORT customer');
    await search.press('Enter');
    // With a search, "Best match" is the default order (not in the URL) and the select says so.
    await expect(page).toHaveURL(/\/marketplace\?q=SUPPORT\+customer$/);
    await expect(page.getByLabel('Sort by')).toHaveValue('');
    const sortSelect = page.getByLabel('Sort by');
    await expect
      .poll(() => sortSelect.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent))
      .toBe('Best match');
    const { total } = await resultLine(page);
    expect(total).toBeGreaterThan(0);
    expect((await cards(page).first().textContent())?.toLowerCase()).toMatch(/support/);

    // A misspelt search that finds nothing offers the catalogue's spelling, as a link.
    await search.fill('emal');
    await search.press('Enter');
    await expect(page.getByText('No agents found')).toBeVisible();
    await page.getByRole('link', { name: 'email', exact: true }).click();
    await expect(page).toHaveURL(/\/marketplace\?q=email$/);
    expect((await resultLine(page)).total).toBeGreaterThan(0);

    const combined =
      '/marketplace?q=campaign&category=marketing&maxPrice=200&minRating=3&sort=price-high&view=list&page=1';
    await page.goto(combined);
    await expect(page).toHaveURL(/q=campaign&category=marketing&maxPrice=200&minRating=3&sort=price-high&view=list$/);
    const first = await cards(page).allTextContents();
    expect(isSorted(await prices(page), 'desc')).toBe(true);
    for (const price of await prices(page)) expect(price).toBeLessThanOrEqual(200);
    await page.reload();
    expect(await cards(page).allTextContents()).toEqual(first);
  });

  test('shows the empty state and drops invalid parameters', async ({ page }) => {
    await page.goto('/marketplace?q=zzzz-no-such-agent');
    await expect(page.getByRole('heading', { name: 'No agents found' })).toBeVisible();
    await expect(page.getByText('Try adjusting your filters or search terms to see more results.')).toBeVisible();
    const response = await page.goto(
      '/marketplace?sort=price;drop%20table%20agents&maxPrice=1e309&page=-1&category=robots',
    );
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/marketplace$/);
  });

  test('shows the error screen when the catalogue fails', async ({ page, context }) => {
    const baseURL = test.info().project.use.baseURL!;
    await context.addCookies([{ name: 'am_fault', value: 'catalogue', url: baseURL }]);
    const response = await page.goto('/marketplace');
    expect(response?.status()).toBe(503);
    await expect(page.getByRole('heading', { name: 'Error Loading Marketplace' })).toBeVisible();
    await expect(page.getByText('Injected fault: the catalogue service did not answer.')).toBeVisible();
    await context.clearCookies();
    await page.getByRole('link', { name: 'Try Again' }).click();
    await expect(cards(page).first()).toBeVisible();
  });

  test('switches between grid and list views', async ({ page }) => {
    await page.goto('/marketplace');
    await page.getByRole('link', { name: 'List view' }).click();
    await expect(page).toHaveURL(/view=list/);
    await expect(cards(page).first()).not.toContainText(/Updated /);
    await page.getByRole('link', { name: 'Grid view' }).click();
    await expect(cards(page).first()).toContainText(
      /Updated (today|yesterday|\d+ (days|months) ago|last month|last year|\d+ years ago)/,
    );
  });
});

test('the home page features the best-rated agents and live category counts', SERVER_RENDERED, async ({ page }) => {
  await page.goto('/');
  const featured = page.getByRole('region', { name: 'Featured Agents' }).getByRole('article');
  await expect(featured).toHaveCount(5);
  const featuredRatings = await featured
    .getByLabel(/^Rated /)
    .evaluateAll((nodes) =>
      nodes.map((node) => Number(/Rated ([\d.]+)/.exec(node.getAttribute('aria-label') ?? '')?.[1])),
    );
  expect(isSorted(featuredRatings, 'desc')).toBe(true);
  const categories = page.getByRole('region', { name: 'Popular Categories' }).getByRole('link');
  await expect(categories).toHaveCount(6);
  const finance = categories.filter({ hasText: 'Finance' });
  await expect(finance).toHaveAttribute('href', '/marketplace?category=finance');
  const count = Number(/(\d+) agents/.exec((await finance.textContent()) ?? '')?.[1]);
  await finance.click();
  expect((await resultLine(page)).total).toBe(count);
  await expectAccessible(page);
});

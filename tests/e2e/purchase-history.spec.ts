/**
 * Purchase History (/dashboard/purchases), with JavaScript on and off, read-only on the seeded
 * demo_buyer: the header, every filter as a URL, the rows' actions, the Contact Seller dialog in
 * the URL and its mail drafts, the empty and error states. Expected figures come from SQL on a
 * twin of the e2e database (same migrations and seed, in memory in this process), written
 * independently of the app's queries.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, SERVER_RENDERED, test } from './fixtures';
import { signIn, signInAs, signUpNewUser, uniqueName } from './support/accounts';
import { useSeedTwin } from './support/seed-twin';

const BUYER_ID = '00000000-0000-4000-8000-000000000001';
const PAGE = '/dashboard/purchases';

const twin = useSeedTwin();
const one = twin.one;

/** demo_buyer's purchases joined with their agents, under an extra condition. */
const countWhere = (condition = 'true') =>
  one(
    `select count(*) as value from public.purchases p join public.agents a on a.id = p.agent_id
      where p.buyer_id = $1 and ${condition}`,
    [BUYER_ID],
  );

const money = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);

const rows = (page: Page) => page.getByRole('list', { name: 'Purchases' }).getByRole('listitem');
const row = (page: Page, agent: string) => page.getByRole('article', { name: agent, exact: true });
const fact = (item: Locator, label: string) =>
  item
    .locator('dl > div')
    .filter({ has: item.page().getByText(label, { exact: true }) })
    .locator('dd');

async function openPurchases(page: Page, search = '') {
  const response = await page.goto(`${PAGE}${search}`);
  expect(response?.status()).toBe(200);
  // Without JavaScript an open dialog hides the page behind it (ADR 024): the heading is there, unseen.
  const dialogOpen = !isJavaScriptProject() && (await page.locator('dialog[open]').count()) > 0;
  const heading = page.getByRole('heading', { level: 1, name: 'Purchase History', includeHidden: dialogOpen });
  await expect(heading).toHaveCount(1);
  if (dialogOpen) await expect(heading).toBeHidden();
  else await expect(heading).toBeVisible();
}

/** Applies the filter form as a user does: with JavaScript on change, without it through Apply. */
async function applyFilters(page: Page) {
  if (!isJavaScriptProject()) await page.getByRole('button', { name: 'Apply' }).click();
}

function decodedMailto(href: string | null) {
  expect(href).toMatch(/^mailto:/);
  const url = new URL(href ?? '');
  return {
    to: decodeURIComponent(url.pathname),
    subject: url.searchParams.get('subject'),
    body: url.searchParams.get('body'),
  };
}

test.describe('purchase history', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'buyer', PAGE);
  });

  test('header, rows and their actions from the seeded purchases', SERVER_RENDERED, async ({ page }) => {
    await openPurchases(page);
    const count = await countWhere();
    const total = await one(
      `select sum(amount) as value from public.purchases where buyer_id = $1 and status = 'completed'`,
      [BUYER_ID],
    );
    await expect(page.getByText(`${count} purchases • Total spent: ${money(total)}`, { exact: true })).toBeVisible();
    await expect(rows(page)).toHaveCount(count);

    // A completed, rated purchase: Quick Access in a new tab, Download, no Rate Agent.
    const pilot = row(page, 'CampaignPilot');
    await expect(pilot.getByText('Completed', { exact: true })).toBeVisible();
    await expect(fact(pilot, 'Seller')).toContainText('demo_seller');
    await expect(fact(pilot, 'Seller')).toContainText(/Online|Offline/);
    await expect(fact(pilot, 'Amount')).toHaveText('$149.00');
    await expect(fact(pilot, 'Downloads')).toHaveText(/^\d+ times?$/);
    await expect(fact(pilot, 'Last downloaded')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await expect(pilot.getByRole('img', { name: 'Rated 5 out of 5' })).toBeVisible();
    const quick = pilot.getByRole('link', { name: 'Quick Access to CampaignPilot (opens in a new tab)' });
    await expect(quick).toHaveAttribute('href', '/agent/a0000000-0000-4000-8000-000000000001');
    await expect(quick).toHaveAttribute('target', '_blank');
    await expect(quick).toHaveAttribute('rel', 'noopener');
    await expect(pilot.getByRole('link', { name: 'Download CampaignPilot' })).toHaveAttribute(
      'href',
      '/agent/a0000000-0000-4000-8000-000000000001/download',
    );
    await expect(pilot.getByRole('link', { name: /^Rate Agent/ })).toHaveCount(0);

    // A completed, unrated purchase offers Rate Agent, back to this page.
    const copilot = row(page, 'Call Notes Copilot');
    await expect(copilot.getByText('Not rated', { exact: true })).toBeVisible();
    await expect(copilot.getByRole('link', { name: 'Rate Agent Call Notes Copilot' })).toHaveAttribute(
      'href',
      `/agent/a0000000-0000-4000-8000-000000000040/review?returnTo=${encodeURIComponent(PAGE)}`,
    );

    // Pending, failed and refunded purchases: no Quick Access, Download or Rate Agent; Contact Seller on every row.
    for (const [agent, status] of [
      ['Cash Flow Forecaster', 'Pending'],
      ['Influencer Matchmaker', 'Failed'],
      ['Dashboard Narrator', 'Refunded'],
    ] as const) {
      const item = row(page, agent);
      await expect(item.getByText(status, { exact: true })).toBeVisible();
      await expect(item.getByRole('link', { name: /^(Quick Access|Download|Rate Agent)/ })).toHaveCount(0);
      await expect(item.getByRole('link', { name: `Contact Seller of ${agent}` })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: /^Contact Seller of / })).toHaveCount(count);
    await expectAccessible(page);
  });

  test('every filter is a URL, filtered in the database', async ({ page }) => {
    await openPurchases(page, '?status=completed');
    await expect(rows(page)).toHaveCount(await countWhere(`p.status = 'completed'`));
    await expect(page.getByLabel('Status')).toHaveValue('completed');

    await openPurchases(page, '?status=refunded');
    await expect(rows(page)).toHaveCount(await countWhere(`p.status = 'refunded'`));
    await expect(rows(page).first().getByText('Refunded', { exact: true })).toBeVisible();

    await openPurchases(page, '?category=data+analysis');
    await expect(rows(page)).toHaveCount(await countWhere(`a.category = 'Data Analysis'`));
    await expect(page.getByLabel('Category')).toHaveValue('data analysis');

    await openPurchases(page, '?q=podcast');
    await expect(rows(page)).toHaveCount(1);
    await expect(row(page, 'Podcast Producer')).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Search purchases' })).toHaveValue('podcast');

    await openPurchases(page, '?status=completed&category=sales');
    await expect(rows(page)).toHaveCount(await countWhere(`p.status = 'completed' and a.category = 'Sales'`));

    // The header keeps counting every purchase whatever the filters.
    await expect(page.getByText(`${await countWhere()} purchases •`)).toBeVisible();

    await page.getByRole('search').getByRole('link', { name: 'Clear Filters' }).click();
    await expect(page).toHaveURL(PAGE);
    await expect(rows(page)).toHaveCount(await countWhere());
  });

  test('the category select lists the purchased categories, and the form builds the URL', async ({ page }) => {
    await openPurchases(page);
    const categories = await twin.query<{ category: string }>(
      `select distinct a.category from public.purchases p join public.agents a on a.id = p.agent_id where p.buyer_id = $1`,
      [BUYER_ID],
    );
    const options = await page.getByLabel('Category').locator('option').allTextContents();
    expect(options[0]).toBe('All Categories');
    expect(options.slice(1).sort()).toEqual(categories.rows.map((entry) => entry.category).sort());
    expect(await page.getByLabel('Status').locator('option').allTextContents()).toEqual([
      'All Statuses',
      'Completed',
      'Pending',
      'Failed',
      'Refunded',
    ]);
    await expect(page.getByRole('searchbox', { name: 'Search purchases' })).toHaveAttribute(
      'placeholder',
      'Search purchases...',
    );

    await page.getByLabel('Status').selectOption('completed');
    await applyFilters(page);
    await expect(page).toHaveURL(`${PAGE}?status=completed`);
    await page.getByLabel('Category').selectOption('sales');
    await applyFilters(page);
    await expect(page).toHaveURL(`${PAGE}?status=completed&category=sales`);
    await expect(rows(page)).toHaveCount(await countWhere(`p.status = 'completed' and a.category = 'Sales'`));

    await page.getByRole('searchbox', { name: 'Search purchases' }).fill('cold call');
    if (isJavaScriptProject()) await expect(page).toHaveURL(`${PAGE}?q=cold+call&status=completed&category=sales`);
    else await page.getByRole('searchbox', { name: 'Search purchases' }).press('Enter');
    await expect(page).toHaveURL(`${PAGE}?q=cold+call&status=completed&category=sales`);
    await expect(rows(page)).toHaveCount(1);
    await expect(row(page, 'Cold Call Trainer')).toBeVisible();
  });

  test('invalid parameters are ignored, never an error', SERVER_RENDERED, async ({ page }) => {
    const count = await countWhere();
    for (const search of [
      '?status=shipped',
      '?status=COMPLETED&category=toys',
      '?contact=not-a-uuid',
      '?contact=00000000-0000-4000-8000-00000000ffff',
      '?q=&status=&category=',
      `?q=${'x'.repeat(300)}&category[]=1`,
    ]) {
      await openPurchases(page, search);
      await expect(page.getByRole('dialog')).toHaveCount(0);
      if (!search.startsWith('?q=x')) {
        await expect(page).toHaveURL(PAGE);
        await expect(rows(page)).toHaveCount(count);
      }
    }
    await expect(page.getByText('No purchases found')).toBeVisible();
  });

  test('no purchases under the filters: advice and Clear Filters', SERVER_RENDERED, async ({ page }) => {
    await openPurchases(page, '?q=no-such-agent-anywhere');
    await expect(page.getByRole('heading', { name: 'No purchases found' })).toBeVisible();
    await expect(page.getByText('Try adjusting your search or filters.')).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Clear Filters' }).last().click();
    await expect(page).toHaveURL(PAGE);
    await expect(rows(page)).toHaveCount(await countWhere());
  });

  test('Contact Seller opens from the URL with the mail drafts of the purchase', async ({ page }) => {
    await openPurchases(page, '?status=completed');
    const pilot = row(page, 'CampaignPilot');
    const purchasedOn = (await fact(pilot, 'Purchased').textContent()) ?? '';
    expect(purchasedOn).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await pilot.getByRole('link', { name: 'Contact Seller of CampaignPilot' }).click();
    await expect(page).toHaveURL(`${PAGE}?status=completed&contact=b0000000-0000-4000-8000-000000000001`);

    const dialog = page.getByRole('dialog', { name: 'Contact Seller' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('demo_seller', { exact: true })).toBeVisible();
    await expect(dialog.getByText(/^(Online|Offline)/)).toBeVisible();
    await expect(dialog.getByText('Responds in about 2 hours')).toBeVisible();
    // demo_seller shares the email with members and has a website.
    await expect(dialog.getByRole('link', { name: 'seller@demo.test' })).toHaveAttribute(
      'href',
      'mailto:seller@demo.test',
    );
    await expect(dialog.getByRole('link', { name: 'Visit Website (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://demo-seller.example.com',
    );

    for (const message of [
      'I need help setting up the AI agent',
      'Can you provide additional documentation?',
      'I have a question about customization options',
      'Request for technical support',
    ]) {
      const draft = decodedMailto(await dialog.getByRole('link', { name: message }).getAttribute('href'));
      expect(draft.to).toBe('seller@demo.test');
      expect(draft.subject).toBe('Question about CampaignPilot');
      expect(draft.body).toContain('Hello demo_seller,');
      expect(draft.body).toContain(`I purchased CampaignPilot on AgentMarket on ${purchasedOn}.`);
      expect(draft.body).toContain(message);
    }
    const send = decodedMailto(await dialog.getByRole('link', { name: 'Send Email' }).getAttribute('href'));
    expect(send.subject).toBe('Question about CampaignPilot');
    expect(send.body).toContain(purchasedOn);
    await expectAccessible(page);

    if (isJavaScriptProject()) {
      // Focus stays inside the dialog, and Escape closes it.
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect(page).toHaveURL(`${PAGE}?status=completed`);
      await expect(dialog).toHaveCount(0);
      await expect(pilot.getByRole('link', { name: 'Contact Seller of CampaignPilot' })).toBeFocused();
      await pilot.getByRole('link', { name: 'Contact Seller of CampaignPilot' }).click();
    }
    await dialog.getByRole('link', { name: 'Close', exact: true }).click();
    await expect(page).toHaveURL(`${PAGE}?status=completed`);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(rows(page)).toHaveCount(await countWhere(`p.status = 'completed'`));
  });

  test('a seller who shares no email: no mail drafts, with a clear line', SERVER_RENDERED, async ({ page }) => {
    // Anomaly Hunter: nova_labs (display name Nova Labs), response time 4 hours, email not shared, a website.
    await openPurchases(page, '?contact=b0000000-0000-4000-8000-000000000014');
    const dialog = page.getByRole('dialog', { name: 'Contact Seller' });
    await expect(dialog.getByText('Nova Labs', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Responds in about 4 hours')).toBeVisible();
    await expect(dialog.getByText('This seller does not share an email address.')).toBeVisible();
    await expect(dialog.locator('a[href^="mailto:"]')).toHaveCount(0);
    await expect(dialog.getByText('Request for technical support')).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Visit Website (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://novalabs.example.com',
    );
  });

  test('a failed load shows the error inside the page, and Try Again recovers', async ({ page, context }) => {
    await context.addCookies([{ name: 'am_fault', value: 'purchases', url: test.info().project.use.baseURL! }]);
    const response = await page.goto(`${PAGE}?status=completed`);
    expect(response?.status()).toBe(503);
    await expect(page.getByRole('heading', { name: 'Error Loading Purchase History' })).toBeVisible();
    await expect(page.getByText('Injected fault: the purchase history could not be read.')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Purchases' })).toHaveCount(0);
    await expectAccessible(page);

    await context.clearCookies({ name: 'am_fault' });
    await page.getByRole('link', { name: 'Try Again' }).click();
    await expect(page).toHaveURL(`${PAGE}?status=completed`);
    await expect(rows(page)).toHaveCount(await countWhere(`p.status = 'completed'`));
  });

  test('a seller who uses the site shows online', SERVER_RENDERED, async ({ page, browser }) => {
    const sellerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const sellerPage = await sellerContext.newPage();
    await signIn(sellerPage, 'seller', '/dashboard');
    await sellerContext.close();
    await openPurchases(page);
    await expect(fact(row(page, 'CampaignPilot'), 'Seller')).toContainText('Online');
    await openPurchases(page, '?contact=b0000000-0000-4000-8000-000000000001');
    await expect(page.getByRole('dialog', { name: 'Contact Seller' }).getByText(/^Online/)).toBeVisible();
  });
});

test(
  'without a response time no "Responds in" line; a new buyer gets the Browse Marketplace advice',
  SERVER_RENDERED,
  async ({ page }) => {
    const buyer = await twin.query<{ email: string; username: string; purchase_id: string }>(
      `select u.email, u.username, p.id as purchase_id
       from public.purchases p
       join public.users u on u.id = p.buyer_id
       join public.users s on s.id = p.seller_id
      where s.username = 'carecraft_ai' and u.user_type = 'buyer'
      order by u.username, p.id limit 1`,
    );
    const account = buyer.rows[0];
    expect(account, 'a seeded buyer of a carecraft_ai agent').toBeTruthy();
    await signInAs(page, account!, PAGE);
    await openPurchases(page, `?contact=${account!.purchase_id}`);
    const dialog = page.getByRole('dialog', { name: 'Contact Seller' });
    await expect(dialog.getByText('CareCraft AI', { exact: true })).toBeVisible();
    await expect(dialog.getByText(/Responds/)).toHaveCount(0);

    await page.context().clearCookies();
    await signUpNewUser(page, uniqueName('hist', test.info().project.name));
    await openPurchases(page);
    await expect(page.getByText('0 purchases • Total spent: $0.00', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No purchases found' })).toBeVisible();
    await expect(page.getByText('You have not bought any agents yet.')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Browse Marketplace' })).toHaveAttribute(
      'href',
      '/marketplace',
    );
  },
);

/**
 * Seller figures, checked once (in the no-JavaScript run), on the commerce server: a fresh buyer
 * buys and reviews one of demo_seller's agents (one per project that no other spec buys), the
 * seller sees the sale in Earnings (that agent's figures move by the price, the 10 % fee and the
 * net) and in the CSV export, replies on /dashboard/reviews, and the reply shows under the review
 * on the agent page. A buyer posting to the reply action is refused (403), another seller's
 * forged form too (404), and the reply stays as written.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, SERVER_RENDERED, test } from '../fixtures';
import { signIn, signInAs, signUpNewUser, uniqueName } from '../support/accounts';
import { buyFromAgentPage } from '../support/buying';

/** The platform fee the demo starts with (public.platform_settings' default). */
const DEMO_FEE_PERCENT = 10;

const agentPath = (n: number) => `/agent/a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** One of demo_seller's agents nobody else buys. */
const soldHere = () => ({ path: agentPath(61), name: 'Invoice Autopilot', price: 99 });

const money = (text: string) => Number(text.replace(/[^0-9.-]/g, ''));
const cents = (value: number) => Math.round(value * 100);

async function openAs(browser: Browser, baseURL: string | undefined, path: string, who: 'seller' | 'nova') {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled: isJavaScriptProject(),
    acceptDownloads: true,
  });
  const page = await context.newPage();
  if (who === 'seller') await signIn(page, 'seller', path);
  else await signInAs(page, { email: 'nova.labs@demo.test', username: 'nova_labs' }, path);
  return page;
}

/** The agent's row of the seller's "Per agent" table, in cents (zero before its first sale). */
async function agentFigures(page: Page, name: string) {
  await page.goto('/dashboard/earnings');
  const table = page.getByRole('table', { name: 'Earnings per agent' });
  await expect(table).toBeVisible();
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
  if ((await row.count()) === 0) return { sales: 0, gross: 0, fee: 0, net: 0 };
  const cells = await row.getByRole('cell').allTextContents();
  return {
    sales: Number(cells[0]!.match(/^\d+/)![0]),
    gross: cents(money(cells[1]!)),
    fee: cents(money(cells[3]!)),
    net: cents(money(cells[4]!)),
  };
}

test(
  'a sale and a review reach the seller: earnings, CSV export, reply on the agent page',
  SERVER_RENDERED,
  async ({ page, browser, baseURL }) => {
    // The figures and the CSV are the server's; the same sale, review and reply run with JavaScript
    // in seller-journey.spec.ts.
    test.setTimeout(180_000); // two accounts, three pages with axe in two themes, a download: long on a busy machine
    const agent = soldHere();
    const seller = await openAs(browser, baseURL, '/dashboard/earnings', 'seller');
    await expect(seller.getByRole('heading', { level: 1, name: 'Earnings' })).toBeVisible();
    await expect(seller.getByText(`Platform fee (${DEMO_FEE_PERCENT}%)`, { exact: true })).toBeVisible();
    const before = await agentFigures(seller, agent.name);

    // A fresh buyer buys and reviews the agent.
    const buyer = await signUpNewUser(page, uniqueName('fig', test.info().project.name));
    await page.goto(agent.path);
    await buyFromAgentPage(page);
    await expect(page.getByText('In your collection', { exact: true })).toBeVisible();
    await page.goto(`${agent.path}/review`);
    await page.locator('label[for="rating-4"]').click();
    await page.getByLabel('Your review (optional)').fill('Booked = "great", saved hours.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Thanks! Your rating has been saved.' })).toBeVisible();

    // Earnings: this agent's figures move by the price, the fee and the net.
    const after = await agentFigures(seller, agent.name);
    const fee = Math.round((cents(agent.price) * DEMO_FEE_PERCENT) / 100);
    expect(after).toEqual({
      sales: before.sales + 1,
      gross: before.gross + cents(agent.price),
      fee: before.fee + fee,
      net: before.net + cents(agent.price) - fee,
    });
    await expect(seller.getByRole('listitem', { name: `${agent.name}, bought by ${buyer}` })).toBeVisible();
    await expectAccessible(seller);

    // The CSV export: a plain link, one row per purchase.
    const [download] = await Promise.all([
      seller.waitForEvent('download'),
      seller.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^earnings-demo_seller-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.startsWith('Date,Agent,Buyer,List price,Discount,Amount,Platform fee,Net,Status\r\n')).toBe(true);
    const price = agent.price.toFixed(2);
    const net = ((cents(agent.price) - fee) / 100).toFixed(2);
    expect(csv).toMatch(
      new RegExp(
        `\\r\\n\\d{4}-\\d{2}-\\d{2},${agent.name},${buyer},${price},0.00,${price},${(fee / 100).toFixed(2)},${net},completed\\r\\n`,
      ),
    );
    const response = await seller.request.get('/dashboard/earnings/export');
    expect(response.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers()['content-disposition']).toMatch(/^attachment; filename="earnings-demo_seller-/);

    // The seller replies on /dashboard/reviews.
    await seller.goto('/dashboard/reviews');
    await expect(seller.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
    const item = seller.getByRole('listitem', { name: `${agent.name}, reviewed by ${buyer}` });
    await expect(item.getByText('Booked = "great", saved hours.')).toBeVisible();
    await item.getByRole('link', { name: `Reply to ${buyer}` }).click();
    await expect(seller).toHaveURL(/[?&]reply=[0-9a-f-]{36}/);
    const reviewId = new URL(seller.url()).searchParams.get('reply')!;
    const form = item.getByRole('form', { name: `Reply to ${buyer} about ${agent.name}` });
    await expectAccessible(seller);
    await form.getByLabel('Your public reply').fill('Thank you! <b>Glad</b> it saves you time.');
    await form.getByRole('button', { name: 'Publish reply' }).click();
    await expect(
      seller.getByRole('status').filter({ hasText: 'Your reply is published under the review.' }),
    ).toBeVisible();
    await expect(item.getByRole('region', { name: 'Your reply' })).toContainText(
      'Thank you! <b>Glad</b> it saves you time.',
    );
    await expect(item.getByRole('link', { name: `Edit reply to ${buyer}` })).toBeVisible();

    // Under the review on the agent page, labelled as the seller's response.
    await page.goto(agent.path);
    const review = page.locator('#reviews').getByRole('article', { name: `Review by ${buyer}` });
    const reply = review.getByRole('region', { name: 'Response from the seller' });
    await expect(reply).toContainText('Thank you! <b>Glad</b> it saves you time.');
    await expect(reply.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
    await expect(reply.locator('b')).toHaveCount(0);
    await expectAccessible(page);

    // A buyer posting to the reply action: refused before any action runs, nothing changes.
    const origin = new URL(page.url()).origin;
    const forged = { intent: 'save', reviewId, reply: 'Not the seller.' };
    const refused = await page.request.post('/dashboard/reviews', {
      form: forged,
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toContain('Access Denied');

    // Another seller's forged form: 404, nothing changes.
    const nova = await openAs(browser, baseURL, '/dashboard/reviews', 'nova');
    const other = await nova.request.post('/dashboard/reviews', {
      form: forged,
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(other.status()).toBe(404);
    await nova.context().close();

    await page.reload();
    await expect(reply).toContainText('Thank you! <b>Glad</b> it saves you time.');
    await seller.context().close();
  },
);

/**
 * Downloads (`GET /agent/:agentId/download`) and refunds (/dashboard/earnings for sellers,
 * /dashboard/disputes for admins) against the real server. The seeded demo accounts are only
 * read; every refund is of a purchase a fresh account made in this test.
 *
 * demo_buyer owns completed purchases of seed agents 1, 14, 27, 40, 55 and 75; agent 1
 * (CampaignPilot, demo_seller's) ships 1.0.0 and 1.1.0. demo_seller sells agents 1, 7, 13, 19, …
 */
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, SERVER_RENDERED, test } from '../fixtures';
import { signIn, signUpNewUser, uniqueName } from '../support/accounts';
import { buyFromAgentPage } from '../support/buying';

const agentId = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const CAMPAIGN_PILOT = agentId(1);
const FORBIDDEN = 'Only the buyer of a completed purchase';

async function buy(page: Page, agent: string) {
  await page.goto(`/agent/${agent}`);
  await buyFromAgentPage(page);
  await expect(page.getByText('In your collection', { exact: true })).toBeVisible();
}

async function downloadStatus(page: Page, agent: string): Promise<number> {
  return (await page.request.get(`/agent/${agent}/download`, { maxRedirects: 0 })).status();
}

/** A second browser session as a demo account, JavaScript as in this project. */
async function openAs(browser: Browser, baseURL: string | undefined, role: 'seller' | 'admin', path: string) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: isJavaScriptProject() });
  const page = await context.newPage();
  await signIn(page, role, path);
  return page;
}

async function refund(page: Page, buyer: string, reason: string) {
  const row = page.getByRole('listitem', { name: new RegExp(`bought by ${buyer}$`) });
  await row.getByRole('link', { name: /^Refund/ }).click();
  const form = row.getByRole('form', { name: /^Refund / });
  await expect(form.getByText('Test mode: no money moves.')).toBeVisible();
  await form.getByLabel('Reason for the refund').fill(reason);
  await form.getByRole('button', { name: 'Refund purchase' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Purchase refunded.' })).toBeVisible();
  await expect(row.getByText('Refunded', { exact: true })).toBeVisible();
  await expect(row.getByText(`Refund reason: ${reason}`)).toBeVisible();
}

test.describe('downloads', () => {
  test('the buyer gets the package: its bytes are the manifest, latest or an earlier version', async ({ page }) => {
    await signIn(page, 'buyer');
    const latest = await page.request.get(`/agent/${CAMPAIGN_PILOT}/download`);
    expect(latest.status()).toBe(200);
    expect(latest.headers()['content-type']).toBe('application/json');
    expect(latest.headers()['content-disposition']).toBe('attachment; filename="campaignpilot-1.1.0.json"');
    expect(latest.headers()['cache-control']).toBe('private, no-store, no-transform');
    expect(latest.headers()['x-content-type-options']).toBe('nosniff');
    const body = await latest.body();
    expect(latest.headers()['content-length']).toBe(String(body.byteLength));
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({ name: 'CampaignPilot', version: '1.1.0' });

    const earlier = await page.request.get(`/agent/${CAMPAIGN_PILOT}/download?version=1.0.0`);
    expect(earlier.status()).toBe(200);
    expect(JSON.parse((await earlier.body()).toString('utf8'))).toMatchObject({
      name: 'CampaignPilot',
      version: '1.0.0',
    });
    expect((await page.request.get(`/agent/${CAMPAIGN_PILOT}/download?version=9.9.9`)).status()).toBe(404);
  });

  test('signed out, the download sends to sign-in and back', async ({ request }) => {
    const response = await request.get(`/agent/${CAMPAIGN_PILOT}/download?version=1.0.0`, { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    const location = new URL(response.headers().location ?? '', 'http://localhost');
    expect(location.pathname).toBe('/');
    expect(location.searchParams.get('auth')).toBe('sign-in');
    expect(location.searchParams.get('redirectTo')).toBe(`/agent/${CAMPAIGN_PILOT}/download?version=1.0.0`);
  });

  test('another signed-in user gets 403, never the bytes', async ({ page }) => {
    await signUpNewUser(page, uniqueName('dl', test.info().project.name));
    const response = await page.request.get(`/agent/${CAMPAIGN_PILOT}/download`);
    expect(response.status()).toBe(403);
    const text = await response.text();
    expect(text).toContain(FORBIDDEN);
    expect(text).not.toContain('CampaignPilot');
  });

  test("the agent's seller and an admin download it", async ({ page, browser, baseURL }) => {
    await signIn(page, 'seller');
    const own = await page.request.get(`/agent/${CAMPAIGN_PILOT}/download`);
    expect(own.status()).toBe(200);
    expect(JSON.parse((await own.body()).toString('utf8'))).toMatchObject({ name: 'CampaignPilot' });
    expect(await downloadStatus(page, agentId(2))).toBe(403); // another seller's agent

    const admin = await openAs(browser, baseURL, 'admin', '/dashboard');
    const response = await admin.request.get(`/agent/${agentId(2)}/download`);
    expect(response.status()).toBe(200);
    expect(JSON.parse((await response.body()).toString('utf8'))).toMatchObject({ name: 'SEO Sentinel' });
    await admin.context().close();
  });
});

test.describe('refunds', () => {
  test('a buyer cannot refund: both pages refuse the submission (403)', SERVER_RENDERED, async ({ page, baseURL }) => {
    await signIn(page, 'buyer');
    for (const path of ['/dashboard/earnings', '/dashboard/disputes']) {
      const response = await page.request.post(path, {
        form: { purchaseId: 'b0000000-0000-4000-8000-000000000001', reason: 'Give me my money back' },
        headers: { Origin: baseURL ?? '' },
        maxRedirects: 0,
      });
      expect(`${path} ${response.status()}`).toBe(`${path} 403`);
      expect(await response.text()).toContain('Access Denied');
    }
  });

  test('the seller sees their sales and opens the refund form; a blank reason is refused on the page', async ({
    page,
  }) => {
    test.slow(); // the Earnings page (figures, tables, sales) through axe in two themes: long on a busy machine
    await signIn(page, 'seller', '/dashboard/earnings');
    await expect(page.getByRole('heading', { level: 1, name: 'Earnings' })).toBeVisible();
    await expect(page.getByText('Net earnings', { exact: true })).toBeVisible();
    const row = page.getByRole('listitem', { name: 'CampaignPilot, bought by demo_buyer' });
    await expect(row.getByText('Completed', { exact: true })).toBeVisible();
    await row.getByRole('link', { name: /^Refund/ }).click();
    await expect(page).toHaveURL(/[?&]refund=b0000000-0000-4000-8000-000000000001/);
    const form = row.getByRole('form', { name: /^Refund CampaignPilot to demo_buyer/ });
    await expect(form.getByText('Test mode: no money moves.')).toBeVisible();
    await expectAccessible(page);

    // Three spaces pass the browser's length check; the server trims them and says why.
    await form.getByLabel('Reason for the refund').fill('   ');
    await form.getByRole('button', { name: 'Refund purchase' }).click();
    await expect(form.getByRole('alert')).toContainText('Please give a reason of at least 3 characters.');
    await expect(row.getByText('Completed', { exact: true })).toBeVisible();

    await form.getByRole('link', { name: 'Cancel' }).click();
    await expect(row.getByRole('form')).toHaveCount(0);
  });

  test('the admin searches every purchase on Disputes', async ({ page }) => {
    await signIn(page, 'admin', '/dashboard/disputes');
    await expect(page.getByRole('heading', { level: 1, name: 'Disputes' })).toBeVisible();
    await page.getByLabel('Search by agent or buyer').fill('demo_buyer');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/[?&]q=demo_buyer/);
    await expect(page.getByRole('heading', { name: /^Purchases matching “demo_buyer”/ })).toBeVisible();
    await expect(page.getByRole('listitem', { name: 'CampaignPilot, bought by demo_buyer' })).toBeVisible();
    await expect(
      page.getByRole('listitem', { name: /bought by demo_buyer$/ }).getByText('Refunded', { exact: true }),
    ).toHaveCount(1);
    await expectAccessible(page);
  });

  test('the seller refunds a sale: the buyer can no longer download it', async ({ page, browser, baseURL }) => {
    test.slow(); // two accounts, a purchase, a refund and axe on the Earnings page
    const agent = isJavaScriptProject() ? agentId(7) : agentId(13); // demo_seller's agents
    const buyer = await signUpNewUser(page, uniqueName('rf', test.info().project.name));
    await buy(page, agent);
    expect(await downloadStatus(page, agent)).toBe(200);

    const seller = await openAs(browser, baseURL, 'seller', '/dashboard/earnings');
    await refund(seller, buyer, 'Bought by mistake');
    await expectAccessible(seller);
    await seller.context().close();

    expect(await downloadStatus(page, agent)).toBe(403);
    // The buyer's side: gone from the collection, Refunded (with the reason) in the history.
    await page.goto('/dashboard/collection');
    await expect(page.getByRole('heading', { name: 'No agents in your collection yet' })).toBeVisible();
    await page.goto('/dashboard/purchases?status=refunded');
    const row = page.getByRole('article').filter({ hasText: 'Refund reason: Bought by mistake' });
    await expect(row.getByText('Refunded', { exact: true })).toBeVisible();
  });

  test('an admin refunds any purchase on Disputes', async ({ page, browser, baseURL }) => {
    const agent = isJavaScriptProject() ? agentId(20) : agentId(22); // other sellers' agents
    const buyer = await signUpNewUser(page, uniqueName('ad', test.info().project.name));
    await buy(page, agent);

    const admin = await openAs(browser, baseURL, 'admin', `/dashboard/disputes?q=${buyer}`);
    await refund(admin, buyer, 'Chargeback from the bank');
    await admin.context().close();

    expect(await downloadStatus(page, agent)).toBe(403);
  });
});

/**
 * Messages in the browser, with JavaScript on and off (ADRs 070, 071): a fresh buyer asks the demo
 * seller about CampaignPilot from its page; the seller finds it under Messages with its count,
 * answers; the buyer sees the answer (with JavaScript without reloading, without it on the next
 * load); a message of only spaces is refused beside its box; the buyer blocks and unblocks.
 * The rules themselves are tested over HTTP (tests/security/messages-pages.test.ts). On the demo
 * data's server: it adds a conversation of a new account and nothing any other spec counts.
 */
import type { Browser } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, test } from './fixtures';
import { signIn, signUpNewUser, uniqueName } from './support/accounts';

const CAMPAIGN_PILOT = 'a0000000-0000-4000-8000-000000000001';

async function openAsSeller(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: isJavaScriptProject() });
  const page = await context.newPage();
  await signIn(page, 'seller', '/dashboard/messages');
  return page;
}

test('a buyer asks the seller about an agent; the seller answers; the buyer reads it', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const buyer = await signUpNewUser(page, uniqueName('ask', testInfo.project.name));
  await page.goto(`/agent/${CAMPAIGN_PILOT}`);
  await page.getByRole('link', { name: 'Message the seller' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Message demo_seller' })).toBeVisible();

  // Only spaces: refused beside the box.
  await page.getByLabel('Your message').fill('   ');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByLabel('Your message')).toHaveAccessibleDescription(/Please write a message\./);

  await page.getByLabel('Your message').fill('Does it work with <Mailchimp>? https://example.test/docs');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'demo_seller' })).toBeVisible();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.getByText('Does it work with <Mailchimp>? https://example.test/docs')).toBeVisible();
  await expect(log.getByRole('link')).toHaveCount(0);
  await expectAccessible(page);

  const seller = await openAsSeller(browser, baseURL);
  const row = seller.getByRole('link', { name: new RegExp(`^${buyer}`) });
  await expect(row).toContainText('1 new message');
  await row.click();
  await expect(seller.getByRole('heading', { level: 1, name: buyer })).toBeVisible();
  await seller.getByLabel('Your message').fill('Yes: connect it under Settings.');
  await seller.getByRole('button', { name: 'Send message' }).click();
  await expect(
    seller.getByRole('log', { name: 'Messages' }).getByText('Yes: connect it under Settings.'),
  ).toBeVisible();
  await expect(seller.getByLabel('Your message')).toHaveValue('');
  await expectAccessible(seller);
  await seller.context().close();

  // With JavaScript the open page shows the answer by itself; without, on the next load.
  if (!isJavaScriptProject()) await page.reload();
  await expect(log.getByText('Yes: connect it under Settings.')).toBeVisible({ timeout: 15_000 });

  // Block, then unblock: the reply box goes and comes back.
  await page.getByText('Report or block').click();
  await page.getByRole('button', { name: 'Block demo_seller' }).click();
  await expect(page.getByText('You blocked this conversation.', { exact: false }).first()).toBeVisible();
  await expect(page.getByLabel('Your message')).toHaveCount(0);
  await page.getByRole('button', { name: 'Unblock demo_seller' }).click();
  await expect(page.getByLabel('Your message')).toBeVisible();

  // The buyer's own entry in the navigation.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Messages' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^demo_seller/ })).toContainText('Yes: connect it under Settings.');
});

/**
 * Deleting a seller's account, with JavaScript on and off, with fresh accounts: a
 * buyer becomes a seller and publishes an agent (a PNG thumbnail and a JSON package), another
 * fresh buyer buys it, and the seller deletes the account, typing the username after being told
 * the listing is unpublished. Then the seller cannot sign in, the agent is gone from the
 * marketplace, its storefront and the signed-out agent page, and the buyer still has it: in the
 * collection (with its thumbnail) and the purchase history, the seller shown as a deleted account
 * with no Contact Seller, its page, and the download of exactly the package bought.
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { expect, expectAccessible, test } from '../fixtures';
import { NEW_USER_PASSWORD, signUpNewUser, uniqueName } from '../support/accounts';
import { manifest, png } from '../support/listing-files';
import { buyFromAgentPage } from '../support/buying';

const DELETED = 'Deleted account';

/** A second browser session, JavaScript as in this project. */
async function newSession(browser: Browser, info: TestInfo): Promise<Page> {
  const { baseURL, javaScriptEnabled } = info.project.use;
  const context = await browser.newContext({ baseURL, javaScriptEnabled: javaScriptEnabled !== false });
  return context.newPage();
}

test('a deleted seller: cannot sign in, the agent leaves the marketplace, the buyer keeps it', async ({
  page,
  browser,
}, info) => {
  test.slow(); // two sign-ups, an upload, a purchase and a deletion on a busy machine
  const seller = page;
  const buyer = await newSession(browser, info);
  const thumbnail = png(4, [22, 163, 74]);
  const name = `Farewell ${uniqueName('ag', info.project.name)}`;
  const pkg = manifest(name, '1.0.0');

  // A fresh seller publishes an agent.
  const sellerName = await signUpNewUser(seller, uniqueName('dsel', info.project.name));
  await seller.goto('/become-seller');
  const become = seller.locator('form[action="/become-seller"]');
  await become.getByLabel('I accept the seller terms').check();
  await become.getByRole('button', { name: 'Become a seller' }).click();
  await expect(seller).toHaveURL(/\/dashboard\/agents$/);
  await seller.goto('/dashboard/upload');
  await seller.getByLabel('Name').fill(name);
  await seller.getByLabel('Description').fill('Says goodbye politely.');
  await seller.getByLabel('Category').selectOption('Sales');
  await seller.getByLabel('Price (USD)').fill('7.50');
  await seller.getByLabel('Thumbnail').setInputFiles({ name: 'thumb.png', mimeType: 'image/png', buffer: thumbnail });
  await seller
    .getByLabel('Package file')
    .setInputFiles({ name: 'farewell.json', mimeType: 'application/json', buffer: pkg });
  await seller.getByRole('button', { name: 'Publish' }).click();
  await expect(seller.getByRole('status').filter({ hasText: `${name} is published` })).toBeVisible();
  const editHref = await seller.getByRole('link', { name: `Edit ${name}` }).getAttribute('href');
  const agentId = /\/dashboard\/agents\/([0-9a-f-]{36})\/edit$/.exec(editHref ?? '')?.[1] ?? '';
  expect(agentId).not.toBe('');
  const agentPath = `/agent/${agentId}`;

  // Another fresh buyer buys it.
  await signUpNewUser(buyer, uniqueName('dbuy', info.project.name));
  await buyer.goto(agentPath);
  await buyFromAgentPage(buyer);
  await expect(buyer.getByText('In your collection', { exact: true })).toBeVisible();

  // The seller is told what happens to the listing, types the username and deletes the account.
  await seller.goto('/profile?tab=data');
  await expect(
    seller.getByText(
      `Your published agent is unpublished and leaves the marketplace: ${name}. Buyers keep the copies they bought.`,
    ),
  ).toBeVisible();
  await expectAccessible(seller);
  const form = seller.locator('form[action="/profile?tab=data"]');
  await form.getByLabel(/Type your username/).fill(sellerName);
  await form.getByRole('button', { name: 'Delete Account' }).click();
  await expect(seller).toHaveURL(/\/$/);
  await expect(seller.getByRole('status').filter({ hasText: 'Your account has been deleted.' })).toBeVisible();

  // The seller cannot sign in.
  await seller.goto('/auth/sign-in');
  const signInForm = seller.locator('form[action="/auth/sign-in"]');
  await signInForm.getByLabel('Email').fill(`${sellerName}@example.com`);
  await signInForm.getByLabel('Password').fill(NEW_USER_PASSWORD);
  await signInForm.getByRole('button', { name: 'Sign In' }).click();
  await expect(seller.getByRole('alert').first()).toBeVisible();
  await expect(seller.getByRole('banner').getByLabel(`Account menu for ${sellerName}`)).toHaveCount(0);

  // The agent is gone from the marketplace, and nobody else can open it.
  await seller.goto(`/marketplace?q=${encodeURIComponent(name)}`);
  await expect(seller.getByRole('heading', { name: 'No agents found' })).toBeVisible();
  expect((await seller.goto(agentPath))?.status()).toBe(404);
  expect((await seller.goto(`/sellers/${sellerName}`))?.status()).toBe(404);

  // The buyer keeps it: the collection, with its thumbnail and the seller anonymised…
  await buyer.goto('/dashboard/collection');
  const owned = buyer.getByRole('main').getByRole('article').filter({ hasText: name });
  await expect(owned).toHaveCount(1);
  await expect(owned.getByText(`by ${DELETED}`)).toBeVisible();
  await expect(owned.getByText(`by ${sellerName}`)).toHaveCount(0);
  const src = await owned.getByRole('img', { name: `${name} thumbnail` }).getAttribute('src');
  expect(src).toMatch(/\/storage\/v1\/object\/public\/agent-images\//);
  const image = await buyer.request.get(src!);
  expect(image.status()).toBe(200);
  expect(Buffer.from(await image.body()).equals(thumbnail)).toBe(true);
  await expect(owned.getByRole('link', { name: `Download ${name}` })).toBeVisible();

  // …the purchase history, without a seller to contact…
  await buyer.goto('/dashboard/purchases');
  const purchase = buyer.getByRole('article', { name });
  await expect(purchase.getByRole('definition').filter({ hasText: DELETED })).toBeVisible();
  await expect(purchase.getByText(sellerName)).toHaveCount(0);
  await expect(purchase.getByRole('link', { name: /Contact Seller/ })).toHaveCount(0);
  await expectAccessible(buyer);

  // …its page, and the download of exactly the package bought.
  await buyer.goto(agentPath);
  await expect(buyer.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(buyer.getByText(`Sold by ${DELETED}`)).toBeVisible();
  await expect(buyer.getByRole('link', { name: sellerName })).toHaveCount(0);
  await expect(buyer.getByText('In your collection', { exact: true })).toBeVisible();
  const download = await buyer.request.get(`${agentPath}/download`);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-disposition']).toBe('attachment; filename="farewell.json"');
  expect(Buffer.from(await download.body()).equals(pkg)).toBe(true);

  await buyer.context().close();
});

/**
 * Buying from the agent page, with JavaScript on and off, on the commerce server (its own data):
 * Buy now opens the order summary (a dialog over the page with JavaScript, the page without) and
 * only Confirm purchase buys; a new buyer buys and owns the agent, a Premium buyer is shown and
 * pays 10 % less, the refusals record nothing, and neither a double submit nor twenty simultaneous
 * requests buy twice. What the data holds is read back through the buyer's own pages (Membership:
 * purchases, total, savings).
 */
import type { APIResponse, Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, test } from '../fixtures';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, signIn, signInAs, signUpNewUser, uniqueName } from '../support/accounts';
import { orderSummary } from '../support/buying';

const agentPath = (n: number) => `/agent/a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Where Buy now leads: the order summary, whose form (Confirm purchase) posts there too. */
const checkout = (path: string) => `${path}/checkout`;
const TEST_MODE = 'Test mode: no real payment is taken. Purchases complete at once.';

/** Different agents per project, so the js and nojs runs never meet. */
const pick = (js: number, nojs: number) => agentPath(isJavaScriptProject() ? js : nojs);

const money = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);

async function listPrice(page: Page): Promise<number> {
  const text = await page.getByText(/^Price: \$/).textContent();
  return Number(text!.replace(/[^0-9.]/g, ''));
}

async function purchaseCount(page: Page): Promise<number> {
  const text = await page.getByText(/^\d[\d,]* purchases?$/).textContent();
  return Number(text!.replace(/\D/g, ''));
}

/** The figures of the buyer's Membership page, by label. */
async function membership(page: Page) {
  await page.goto('/dashboard/membership');
  const figure = async (label: string) =>
    (await page
      .locator('dl > div')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('dd')
      .textContent())!;
  return {
    purchases: await figure('Purchases'),
    totalSpent: await figure('Total Spent'),
    savings: await figure('Savings Earned'),
  };
}

/** A line of the order summary, by its label. */
const summaryLine = (page: Page, label: string) =>
  orderSummary(page)
    .locator('dl > div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

/**
 * A POST of Confirm purchase as the browser would send it (same origin), to the summary of the
 * agent at `path`, with extra or forged fields; the price the open summary shows (its form's
 * field) unless `fields` gives one.
 */
async function postBuy(page: Page, path: string, fields: Record<string, string>): Promise<APIResponse> {
  const origin = new URL(page.url()).origin;
  const shown = await page
    .locator('input[name="price"]')
    .first()
    .inputValue({ timeout: 1000 })
    .catch(() => '1.00');
  return page.request.post(checkout(path), {
    form: { intent: 'buy', price: shown, ...fields },
    headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate' },
    maxRedirects: 0,
  });
}

async function idempotencyKey(page: Page): Promise<string> {
  return (await page.locator('input[name="idempotencyKey"]').inputValue())!;
}

test('a new buyer buys an agent and owns it', async ({ page }) => {
  const buyer = await signUpNewUser(page, uniqueName('buy', test.info().project.name));
  const path = pick(3, 4);
  await page.goto(path);
  const name = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
  const price = await listPrice(page);
  const before = await purchaseCount(page);
  await expect(page.getByText(TEST_MODE)).toBeVisible();
  await expectAccessible(page);

  // Buy now charges nothing: it opens the order summary.
  await page.getByRole('link', { name: 'Buy now' }).click();
  await expect(page).toHaveURL(checkout(path));
  const summary = orderSummary(page);
  await expect(summaryLine(page, 'Agent')).toHaveText(name);
  await expect(summaryLine(page, 'Version')).toHaveText(/^\d+\.\d+\.\d+$/);
  await expect(summaryLine(page, 'Total')).toHaveText(money(price));
  await expect(summaryLine(page, 'List price')).toHaveCount(0);
  await expect(summaryLine(page, 'Payment method')).toHaveText('Test mode');
  await expect(summary.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
  await expectAccessible(page);
  if (isJavaScriptProject()) {
    // A modal over the agent page: focus is inside; Escape closes it and gives focus back to Buy now.
    await expect(summary.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(summary).toHaveCount(0);
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('link', { name: 'Buy now' })).toBeFocused();
    expect(await purchaseCount(page)).toBe(before);
    await page.getByRole('link', { name: 'Buy now' }).click();
  } else {
    // A page of its own: the site's header above it, the agent page behind it not drawn.
    await expect(page.getByRole('banner').getByLabel(`Account menu for ${buyer}`)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name })).toBeHidden();
  }

  await summary.getByRole('button', { name: 'Confirm purchase' }).click();
  await expect(page).toHaveURL(path);
  await expect(
    page.getByRole('status').filter({ hasText: /^Purchase complete! .+ is now in your collection\.$/ }),
  ).toBeVisible();
  await expect(page.getByText('In your collection', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download', exact: true })).toHaveAttribute('href', `${path}/download`);
  await expect(page.getByRole('link', { name: 'Buy now' })).toHaveCount(0);
  // The shared catalogue reads were forgotten: the count moved at once.
  expect(await purchaseCount(page)).toBe(before + 1);
  await expectAccessible(page);

  expect(await membership(page)).toEqual({ purchases: '1', totalSpent: money(price), savings: money(0) });
});

test('a Premium buyer pays 10% less, and Membership counts the saving', async ({ page }) => {
  // Seeded Premium members (lifetime spending between $1,000 and $2,000).
  const account = isJavaScriptProject()
    ? { email: 'priya.shah@demo.test', username: 'priya_shah' }
    : { email: 'alex.rivera@demo.test', username: 'alex_rivera' };
  await signInAs(page, account, '/dashboard/membership');
  await expect(page.locator('dl > div').filter({ hasText: 'Current Tier' }).locator('dd')).toHaveText('Premium');
  // Their seeded purchases since they subscribed already saved them something: the new one adds.
  const before = await membership(page);

  // The first agent on sale that this member does not own yet.
  let path = '';
  for (const n of [5, 6, 9, 10, 11, 12, 15, 16, 17, 18]) {
    await page.goto(agentPath(n));
    if (await page.getByRole('link', { name: 'Buy now' }).isVisible()) {
      path = agentPath(n);
      break;
    }
  }
  expect(path, 'an agent this member can buy').not.toBe('');
  const price = await listPrice(page);
  const discount = Math.round(price * 100 * 0.1) / 100;
  await expect(page.getByText(`Your Premium price: ${money(price - discount)} (10% member discount)`)).toBeVisible();
  // The summary shows the list price, the discount and what is charged.
  await page.getByRole('link', { name: 'Buy now' }).click();
  await expect(summaryLine(page, 'List price')).toHaveText(money(price));
  await expect(summaryLine(page, 'Premium member discount (10%)')).toHaveText(`−${money(discount)}`);
  await expect(summaryLine(page, 'Total')).toHaveText(money(price - discount));
  await orderSummary(page).getByRole('button', { name: 'Confirm purchase' }).click();
  await expect(page.getByText('In your collection', { exact: true })).toBeVisible();

  const after = await membership(page);
  const dollars = (text: string) => Number(text.replace(/[^0-9.]/g, ''));
  expect(dollars(after.savings)).toBeCloseTo(dollars(before.savings) + discount, 2);
  expect(Number(after.purchases)).toBe(Number(before.purchases) + 1);
  expect(dollars(after.totalSpent)).toBeCloseTo(dollars(before.totalSpent) + price - discount, 2);
});

test('a forged price, a replayed form and twenty simultaneous requests buy once, at the real price', async ({
  page,
}) => {
  await signUpNewUser(page, uniqueName('race', test.info().project.name));
  const path = pick(20, 22);
  await page.goto(path);
  const price = await listPrice(page);
  await page.goto(checkout(path));
  const key = await idempotencyKey(page);

  // A forged price is refused: the buyer agrees to the price shown, and no other is charged.
  const forged = await postBuy(page, path, { idempotencyKey: key, price: '0.01', amount: '0' });
  expect(forged.status()).toBe(409);
  // The same form twice (a double click, a replay): one purchase, both answers lead to it.
  const first = await postBuy(page, path, { idempotencyKey: key, amount: '0' });
  expect(first.status()).toBe(303);
  const replay = await postBuy(page, path, { idempotencyKey: key });
  expect(replay.status()).toBe(303);

  // Twenty more forms (other tabs) at once: all refused, nothing recorded.
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => postBuy(page, path, { idempotencyKey: crypto.randomUUID() })),
  );
  expect(answers.map((answer) => answer.status())).toEqual(Array(20).fill(409));
  expect(await answers[0]!.text()).toContain('This agent is already in your collection.');

  expect(await membership(page)).toEqual({ purchases: '1', totalSpent: money(price), savings: money(0) });
});

test('twenty simultaneous first purchases of one agent by one buyer record exactly one', async ({ page }) => {
  await signUpNewUser(page, uniqueName('burst', test.info().project.name));
  const path = pick(23, 24);
  await page.goto(path);
  const price = await listPrice(page);
  await page.goto(checkout(path));
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => postBuy(page, path, { idempotencyKey: crypto.randomUUID() })),
  );
  const statuses = answers.map((answer) => answer.status());
  expect(statuses.filter((status) => status === 303)).toHaveLength(1);
  expect(statuses.filter((status) => status === 409)).toHaveLength(19);
  expect(await membership(page)).toEqual({ purchases: '1', totalSpent: money(price), savings: money(0) });
});

test('refusals are messages on the page and record nothing', async ({ page }) => {
  // The seller of an agent cannot buy it: no Buy button, and a forged POST is refused.
  await signIn(page, 'seller', agentPath(1));
  await expect(page.getByRole('link', { name: 'Buy now' })).toHaveCount(0);
  const own = await postBuy(page, agentPath(1), { idempotencyKey: crypto.randomUUID() });
  expect(own.status()).toBe(409);
  expect(await own.text()).toContain('You are the seller of this agent, so you cannot buy it.');

  // An archived agent its buyer can still open is not on sale.
  await page.context().clearCookies();
  await signIn(page, 'buyer', agentPath(75));
  const archived = await postBuy(page, agentPath(75), { idempotencyKey: crypto.randomUUID() });
  expect(archived.status()).toBe(409);
  expect(await archived.text()).toContain('This agent is not on sale.');
  // Another seller's draft does not exist for a buyer.
  const draft = await postBuy(page, agentPath(73), { idempotencyKey: crypto.randomUUID() });
  expect(draft.status()).toBe(404);
  // A form without its key or price (an old page): a clear 400.
  const stale = await postBuy(page, agentPath(2), { price: '' });
  expect(stale.status()).toBe(400);
  expect(await stale.text()).toContain('This form has expired. Please reload the page and try again.');

  // Already owned (demo_buyer owns CampaignPilot): the summary says so and offers the download.
  const summary = await page.goto(checkout(agentPath(1)));
  expect(summary?.status()).toBe(409);
  await expect(orderSummary(page).getByText('This agent is already in your collection.')).toBeVisible();
  await expect(orderSummary(page).getByRole('link', { name: 'Download', exact: true })).toHaveAttribute(
    'href',
    `${agentPath(1)}/download`,
  );
  await expect(orderSummary(page).getByRole('button', { name: 'Confirm purchase' })).toHaveCount(0);
  const owned = await postBuy(page, agentPath(1), { idempotencyKey: crypto.randomUUID() });
  expect(owned.status()).toBe(409);
  expect(await owned.text()).toContain('This agent is already in your collection.');
});

test('a signed-out visitor signs in and lands on the order summary', async ({ page }) => {
  const path = pick(26, 28);
  await page.goto(path);
  await page.getByRole('link', { name: 'Buy now' }).click();
  const signInDialog = page.getByRole('dialog', { name: 'Welcome back' });
  await expect(signInDialog).toBeVisible();
  // A POST without a session is sent to sign in, with the way back to the summary.
  const origin = new URL(page.url()).origin;
  const post = await page.request.post(checkout(path), {
    form: { intent: 'buy', idempotencyKey: crypto.randomUUID() },
    headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin' },
    maxRedirects: 0,
  });
  expect(post.status()).toBe(302);
  expect(new URL(post.headers().location!, origin).searchParams.get('redirectTo')).toBe(checkout(path));

  // Signed in through the dialog, the buyer is on the summary: no second Buy now.
  await signInDialog.getByLabel('Email').fill(DEMO_ACCOUNTS.buyer.email);
  await signInDialog.getByLabel('Password').fill(DEMO_PASSWORD);
  await signInDialog.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(checkout(path));
  await expect(orderSummary(page).getByRole('button', { name: 'Confirm purchase' })).toBeVisible();
});

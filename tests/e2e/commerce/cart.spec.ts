/**
 * The cart in the browser, with JavaScript on and off (ADR 072): a visitor fills a cart from the
 * marketplace and an agent's page, signs up to check out and finds the cart waiting; one checkout
 * buys both (one order, one invoice with a line each); an agent already owned is refused at the
 * door with a message. The money rules are tested over HTTP (tests/security/cart.test.ts).
 */
import { expect, expectAccessible, test } from '../fixtures';
import { signInAs, signUpNewUser, uniqueName } from '../support/accounts';

const agentId = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

test('a visitor fills a cart, signs in, and checks out both agents as one order', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  // The account, made in a context of its own; the visitor is signed out.
  const signUp = await browser.newContext({ baseURL });
  const username = await signUpNewUser(await signUp.newPage(), uniqueName('cart', testInfo.project.name));
  await signUp.close();

  await page.goto('/marketplace?sort=price-low');
  const firstCard = page.getByRole('article').first();
  const firstName = (await firstCard.getByRole('heading', { level: 3 }).textContent())!.trim();
  await firstCard.getByRole('button', { name: /^Add to cart/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added to your cart.' })).toBeVisible();
  await expect(page).toHaveURL(/\/marketplace\?sort=price-low/);

  await page.goto(`/agent/${agentId(2)}`);
  const secondName = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
  await page.getByRole('button', { name: /^Add to cart/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added to your cart.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cart, 2 agents' })).toBeVisible();

  await page.getByRole('link', { name: 'Cart, 2 agents' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your cart' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: firstName })).toBeVisible();
  await expect(page.getByRole('listitem', { name: secondName })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in to check out' })).toBeVisible();
  await expectAccessible(page);

  // Signed in, the visitor's cart is the account's.
  await signInAs(page, { email: `${username}@example.com`, username }, '/cart');
  await expect(page.getByRole('listitem', { name: firstName })).toBeVisible();
  await expect(page.getByRole('listitem', { name: secondName })).toBeVisible();
  const checkout = page.getByRole('button', { name: /^Check out · \$/ });
  await checkout.click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Collection' })).toBeVisible();
  await expect(page.getByText(/Order complete! 2 agents are now in your collection\./)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cart, 0 agents' })).toBeVisible();

  // One invoice, a line per agent.
  await page.goto('/dashboard/billing');
  await expect(page.getByText('AI agent order - 2 agents').first()).toBeVisible();
  await page
    .getByRole('link', { name: /^Invoice AM-/ })
    .first()
    .click();
  await expect(page.getByText(`AI agent: ${firstName}`)).toBeVisible();
  await expect(page.getByText(`AI agent: ${secondName}`)).toBeVisible();

  // Owned now: refused at the door.
  await page.goto(`/agent/${agentId(2)}`);
  await expect(page.getByRole('button', { name: /^Add to cart/ })).toHaveCount(0);
  const refused = await page.request.post('/cart', {
    form: { intent: 'add', agentId: agentId(2), returnTo: '/cart' },
    headers: { origin: new URL(baseURL!).origin },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(303);
  await page.goto('/cart');
  await expect(page.getByText('This agent is already in your collection.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
});

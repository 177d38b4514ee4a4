/**
 * Licence keys and API tokens in the browser, with JavaScript on and off (ADRs 073, 074): the demo
 * buyer opens a purchase's licence key in My Collection, the agent's check counts an activation,
 * and the buyer resets it; the demo seller makes an API token on Developers (a missing name is
 * refused beside its field), uses it, and revokes it. The rules are tested over HTTP
 * (tests/security/licenses-and-api.test.ts). Each project uses its own card and token.
 */
import { expect, expectAccessible, isJavaScriptProject, test } from './fixtures';
import { signIn } from './support/accounts';

const KEY = /^([0-9A-F]{4}-){7}[0-9A-F]{4}$/;

test('a buyer finds a licence key in My Collection, sees its activation, and resets it', async ({ page, request }) => {
  await signIn(page, 'buyer', '/dashboard/collection');
  // The js project takes the first card, nojs the second: a reset counts once a day per licence.
  const card = page.getByRole('article').nth(isJavaScriptProject() ? 0 : 1);
  const agentHref = await card.getByRole('heading', { level: 2 }).getByRole('link').getAttribute('href');
  await card.getByText('Licence key', { exact: false }).click();
  const key = (await card.locator('code').first().textContent())!.trim();
  expect(key).toMatch(KEY);
  await expectAccessible(page);

  const check = await request.post('/api/v1/licenses/verify', {
    data: { agent_id: agentHref!.split('/').pop(), license_key: key, increment_uses: true },
  });
  expect(check.status()).toBe(200);
  expect((await check.json()).valid).toBe(true);

  await page.reload();
  const reloaded = page.getByRole('article').nth(isJavaScriptProject() ? 0 : 1);
  await reloaded.getByText('Licence key', { exact: false }).click();
  await expect(reloaded).toContainText(/1 activation|1 of \d+ activations used/);
  await reloaded.getByRole('button', { name: /^Reset activations/ }).click();
  await expect(page.getByText('Your activations are reset.')).toBeVisible();
});

test('a seller makes an API token, sees it once, uses it and revokes it', async ({ page, request }, testInfo) => {
  await signIn(page, 'seller', '/dashboard/developers');
  await expect(page.getByRole('heading', { level: 1, name: 'Developers' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Publish from CI in three commands' })).toBeVisible();

  // A name of spaces only (the browser's own check lets it through): refused beside the field.
  await page.getByLabel('Name').fill('   ');
  await page.getByRole('checkbox', { name: /Read sales and earnings/ }).check();
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByLabel('Name')).toHaveAccessibleDescription(/Please name the token/);

  const name = `E2E ${testInfo.project.name}`;
  await page.getByLabel('Name').fill(name);
  await page.getByRole('checkbox', { name: /Read sales and earnings/ }).check();
  await page.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByRole('region', { name: new RegExp(`Your new token “${name}”`) });
  const token = (await shown.locator('code').textContent())!.trim();
  expect(token).toMatch(/^am_pat_[A-Za-z0-9_-]{43}$/);
  await expectAccessible(page);

  const sales = await request.get('/api/v1/sales', { headers: { authorization: `Bearer ${token}` } });
  expect(sales.status()).toBe(200);

  // Listed by its prefix only, and gone once revoked.
  await page.goto('/dashboard/developers');
  const row = page.getByRole('listitem').filter({ hasText: name });
  await expect(row).toContainText(`${token.slice(0, 11)}…`);
  await expect(page.getByText(token)).toHaveCount(0);
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(page.getByText('The token is revoked: it no longer works.')).toBeVisible();
  const after = await request.get('/api/v1/sales', { headers: { authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});

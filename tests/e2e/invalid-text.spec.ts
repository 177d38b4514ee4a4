/**
 * A NUL character (U+0000) in what a visitor sends: a 400 with a clear message, never a 5xx.
 * Before, `/marketplace?q=%00` and a profile save with a NUL in the bio answered 503.
 */
import { expect, SERVER_RENDERED, test } from './fixtures';
import { signUpNewUser, uniqueName } from './support/accounts';

const MESSAGE = 'Text cannot contain null characters (U+0000). Remove them and try again.';

test('a NUL in the marketplace search is a 400 page that says why', SERVER_RENDERED, async ({ page }) => {
  const response = await page.goto('/marketplace?q=%00');
  expect(response?.status()).toBe(400);
  await expect(page.getByText(MESSAGE)).toBeVisible();
  // A path segment too (an agent page).
  const agent = await page.goto('/agent/a%00b');
  expect(agent?.status()).toBe(400);
  await expect(page.getByText(MESSAGE)).toBeVisible();
});

test('a profile save with a NUL in the bio is a 400 with the message, and nothing is saved', async ({ page }) => {
  await signUpNewUser(page, uniqueName('nul', test.info().project.name));
  await page.goto('/profile');
  const form = page.locator('form[action="/profile?tab=profile"]');
  await form.getByLabel('Location').fill('Null Island');
  // A textarea can hold U+0000 (pasted text); the browser sends it as %00.
  await form.getByLabel('Bio').evaluate((element) => {
    (element as HTMLTextAreaElement).value = 'before\u0000after';
  });
  const posted = page.waitForResponse((response) => response.request().method() === 'POST');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  expect((await posted).status()).toBe(400);
  await expect(page.getByText(MESSAGE)).toBeVisible();

  // The same as a plain document POST.
  const direct = await page.request.post('/profile?tab=profile', {
    form: { intent: 'profile', bio: 'a\u0000b', location: 'Null Island' },
    headers: { Origin: new URL(page.url()).origin, 'Sec-Fetch-Site': 'same-origin' },
    maxRedirects: 0,
  });
  expect(direct.status()).toBe(400);
  expect(await direct.text()).toContain(MESSAGE);

  // Nothing was stored.
  await page.goto('/profile');
  await expect(form.getByLabel('Bio')).toHaveValue('');
  await expect(form.getByLabel('Location')).toHaveValue('');
});

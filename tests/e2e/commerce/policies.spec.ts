/**
 * Policies in the browser, with JavaScript on and off (ADR 069): the public pages show the version
 * in force; an admin opens a policy, previews a change rendered as the public page renders it, and
 * a summary left empty is refused beside its field with the text kept. Publishing asks every user
 * to accept the new version, so it is tested on a server of its own (tests/security/policies.test.ts),
 * with the acceptance before a purchase and before a listing change.
 */
import { expect, expectAccessible, test } from '../fixtures';
import { signIn } from '../support/accounts';

test('the Terms, the Privacy Policy and the Seller Policy show their version in force', async ({ page }) => {
  for (const [path, title] of [
    ['/terms', 'Terms of Service'],
    ['/privacy', 'Privacy Policy'],
    ['/seller-policy', 'Seller Policy'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText(/^Version \d+, published /)).toBeVisible();
  }
  await expectAccessible(page);
});

test('an admin previews a change of the Seller Policy; an empty summary is refused beside its field', async ({
  page,
}) => {
  await signIn(page, 'admin', '/dashboard/policies');
  await expect(page.getByRole('heading', { level: 1, name: 'Policies' })).toBeVisible();
  await page.getByRole('link', { name: 'Edit Seller Policy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Seller Policy' })).toBeVisible();
  const text = page.getByLabel('Text (Markdown)');
  await text.fill('## Support\n\nAnswer buyers within **two days**.\n\n<b>not bold</b>');
  await page.getByLabel('What changed').fill('Answer within two days.');
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('heading', { level: 2, name: 'Support' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('two days');
  await expect(preview).toContainText('<b>not bold</b>');
  await expect(text).toHaveValue(/Answer buyers within \*\*two days\*\*/);
  await expectAccessible(page);

  await page.getByLabel('What changed').fill('');
  await page.getByRole('button', { name: /^Publish version/ }).click();
  const summary = page.getByLabel('What changed');
  await expect(summary).toHaveAttribute('aria-invalid', 'true');
  await expect(summary).toHaveAccessibleDescription(/Say in a sentence what changed/);
  await expect(page.getByLabel('Text (Markdown)')).toHaveValue(/two days/);
});

test('a buyer is refused Policies', async ({ page }) => {
  await signIn(page, 'buyer', '/dashboard/policies');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
});

/**
 * System Settings' platform settings in the browser, with JavaScript on and off: an admin sees the
 * settings in force, a fee out of range is refused beside its field with what was typed kept, and
 * saving the settings as they are says so. The changes themselves (fee, sign-up, maintenance) are
 * tested on a server of their own (tests/security/platform-settings.test.ts): this server is
 * shared by every commerce spec, so nothing here changes what the others see.
 */
import { expect, expectAccessible, test } from '../fixtures';
import { signIn } from '../support/accounts';

test('an admin reads and saves the platform settings; a fee out of range is refused beside its field', async ({
  page,
}) => {
  await signIn(page, 'admin', '/dashboard/system');
  await expect(page.getByRole('heading', { level: 1, name: 'System Settings' })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Platform settings' });
  const fee = panel.getByLabel('Platform fee (%)');
  await expect(fee).toHaveValue('10');
  await expect(panel.getByLabel('Sign-up open')).toBeChecked();
  await expect(panel.getByLabel('Maintenance mode')).not.toBeChecked();
  await expectAccessible(page);

  await fee.fill('75');
  await panel.getByRole('button', { name: 'Save settings' }).click();
  const error = 'The platform fee must be a number from 0 to 50 with at most two decimals.';
  await expect(panel.getByRole('alert')).toHaveText(error);
  await expect(fee).toHaveValue('75');
  await expect(fee).toHaveAttribute('aria-invalid', 'true');
  await expect(fee).toHaveAccessibleDescription(new RegExp(error.replace(/[.]/g, '\\.')));

  await fee.fill('10');
  await panel.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(fee).toHaveValue('10');
  await expect(fee).not.toHaveAttribute('aria-invalid');
});

test('a seller is refused System Settings', async ({ page }) => {
  await signIn(page, 'seller', '/dashboard/system');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Platform settings' })).toHaveCount(0);
});

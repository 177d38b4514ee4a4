/**
 * The Database page in the browser, with JavaScript on and off (ADR 067): an admin sees the health
 * check, the migrations (all applied) and the tables, and downloads a backup as one file; a seller
 * is refused. The backup's content and its restore are tested on a server of their own
 * (tests/security/database-admin.test.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { expect, expectAccessible, test } from '../fixtures';
import { signIn } from '../support/accounts';

const MIGRATIONS = readdirSync('supabase/migrations').filter((file) => file.endsWith('.sql')).length;

test('an admin sees the health, the migrations and the tables, and downloads a backup', async ({ page }) => {
  await signIn(page, 'admin', '/dashboard/database');
  await expect(page.getByRole('heading', { level: 1, name: 'Database' })).toBeVisible();
  const health = page.getByRole('region', { name: 'Health check' });
  await expect(health.getByText(/^Reachable, answered in [\d.]+ ms$/)).toHaveCount(2);

  const migrations = page.getByRole('region', { name: 'Migrations' });
  await expect(migrations).toContainText(`${MIGRATIONS} applied, 0 pending.`);
  await migrations.getByText('Applied migrations, newest first').click();
  await expect(migrations.getByRole('listitem').first()).toHaveText(/^\d{14} \w+$/);

  const tables = page.getByRole('table', { name: 'Tables, largest first' });
  await expect(tables.getByRole('rowheader', { name: 'public.agents', exact: true })).toBeVisible();
  await expectAccessible(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download a backup' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    /^agentmarket-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[0-9a-f]{8}\.tar\.gz$/,
  );
  expect(statSync(await download.path()).size).toBeGreaterThan(100_000);
  // The page stays as it was.
  await expect(page.getByRole('heading', { level: 1, name: 'Database' })).toBeVisible();
});

test('a seller is refused the Database page', async ({ page }) => {
  await signIn(page, 'seller', '/dashboard/database');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Tables' })).toHaveCount(0);
});

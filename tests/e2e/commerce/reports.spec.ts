/**
 * Reports in the browser, with JavaScript on and off (ADR 068): an admin chooses a report and its
 * days, reads it a page at a time with its totals, downloads it as CSV, and a last day before the
 * first is refused beside its field with what was typed kept. What the rows hold, the audit and
 * the streaming of a large range are tested on a server of their own (tests/security/reports.test.ts).
 */
import { readFileSync } from 'node:fs';
import { expect, expectAccessible, test } from '../fixtures';
import { signIn } from '../support/accounts';

test('an admin generates the sales report, pages through it and downloads it as CSV', async ({ page }) => {
  await signIn(page, 'admin', '/dashboard/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Choose a report' });
  await form.getByLabel('Report').selectOption('sales');
  await form.getByLabel('From').fill('2020-01-01');
  await form.getByLabel('To').fill('2029-12-31');
  await form.getByRole('button', { name: 'Show report' }).click();

  const report = page.getByRole('region', { name: 'Sales report, 2020-01-01 to 2029-12-31' });
  await expect(report).toBeVisible();
  await expect(page).toHaveURL(/report=sales&from=2020-01-01&to=2029-12-31/);
  const sales = Number((await report.locator('dt:text-is("Sales") + dd').textContent())!.replace(/,/g, ''));
  expect(sales).toBeGreaterThan(25);
  const table = report.getByRole('table', { name: 'Sales report, 2020-01-01 to 2029-12-31' });
  await expect(table.getByRole('row')).toHaveCount(26);
  await expectAccessible(page);

  await report.getByRole('link', { name: /Next/ }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(report.getByText(`Page 2 of ${Math.ceil(sales / 25)}`)).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    report.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('sales-report-2020-01-01-to-2029-12-31.csv');
  const lines = readFileSync(await download.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('Bought,Agent,Seller,Buyer,List price,Discount,Paid,Fee %,Fee,Status');
  expect(lines.length - 1).toBeGreaterThanOrEqual(sales);
});

test('a last day before the first is refused beside its field, with the days kept', async ({ page }) => {
  await signIn(page, 'admin', '/dashboard/reports');
  const form = page.getByRole('form', { name: 'Choose a report' });
  await form.getByLabel('From').fill('2026-11-20');
  await form.getByLabel('To').fill('2026-11-01');
  await form.getByRole('button', { name: 'Show report' }).click();
  const to = page.getByRole('form', { name: 'Choose a report' }).getByLabel('To');
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(to).toHaveAccessibleDescription('The last day cannot be before the first.');
  await expect(to).toHaveValue('2026-11-01');
  await expect(page.getByRole('form', { name: 'Choose a report' }).getByLabel('From')).toHaveValue('2026-11-20');
  await expect(page.getByRole('region', { name: /report, / })).toHaveCount(0);
});

test('a seller is refused Reports', async ({ page }) => {
  await signIn(page, 'seller', '/dashboard/reports');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
});

/**
 * Billing History and invoices, with JavaScript on and off, on the commerce server with
 * a fresh account: buy an agent, subscribe to Premium, buy another at the member discount; Billing
 * lists all three with their amounts and statuses; each invoice's totals match what was paid; the
 * CSV of Download All has their rows; another member gets a 404 for the invoice's URL.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, test } from '../fixtures';
import { signUpNewUser, uniqueName } from '../support/accounts';
import { buyFromAgentPage } from '../support/buying';

const agentPath = (n: number) => `/agent/a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Different agents per project, so the js and nojs runs never meet. */
const pick = (js: number, nojs: number) => agentPath(isJavaScriptProject() ? js : nojs);

const money = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);
const cents = (value: number) => Math.round(value * 100);

/** Buys the agent at `path`; its name and list price. */
async function buy(page: Page, path: string) {
  await page.goto(path);
  const name = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
  const price = Number((await page.getByText(/^Price: \$/).textContent())!.replace(/[^0-9.]/g, ''));
  await buyFromAgentPage(page);
  await expect(page.getByText('In your collection', { exact: true })).toBeVisible();
  return { name, price };
}

/** A figure of the invoice's facts or totals, by its label. */
const fact = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');
const total = (page: Page, label: string) =>
  page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
    .getByRole('cell');

async function otherMember(browser: Browser, page: Page) {
  const context = await browser.newContext({
    baseURL: new URL(page.url()).origin,
    javaScriptEnabled: isJavaScriptProject(),
  });
  return context.newPage();
}

test('Billing lists purchases and the subscription with their invoices and CSV; others get a 404', async ({
  page,
  browser,
}) => {
  test.slow(); // one member's purchases, a subscription, two invoices, accessibility checks
  const username = await signUpNewUser(page, uniqueName('invoice', test.info().project.name));

  const first = await buy(page, pick(52, 53));
  await page.goto('/dashboard/membership/confirm?tier=premium');
  await page.getByRole('button', { name: 'Confirm and pay $19.00' }).click();
  await expect(page).toHaveURL('/dashboard/membership');
  const second = await buy(page, pick(56, 60));
  const discount = Math.round(cents(second.price) * 0.1) / 100;
  const secondPaid = (cents(second.price) - cents(discount)) / 100;

  // Billing: newest first, amounts to 2 decimals, statuses in the specification's colours.
  await page.goto('/dashboard/billing');
  const history = page.getByRole('region', { name: 'Billing History' });
  const rows = history.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  const expected = [
    [`AI agent purchase - ${second.name}`, money(secondPaid)],
    ['Premium membership - monthly', '$19.00'],
    [`AI agent purchase - ${first.name}`, money(first.price)],
  ];
  for (const [index, [description, amount]] of expected.entries()) {
    const cells = rows.nth(index).getByRole('cell');
    await expect(cells.nth(1)).toHaveText(description!);
    await expect(cells.nth(2)).toHaveText(amount!);
    await expect(cells.nth(3).getByText('Paid', { exact: true })).toHaveClass(/bg-green-100/);
    await expect(cells.nth(4)).toHaveText('Test mode');
  }
  await expect(page.getByText('Sample data')).toHaveCount(0);
  await expectAccessible(page);
  const invoiceLinks = history.getByRole('link', { name: /^Invoice AM-\d{8}-[0-9A-F]{8}$/ });
  const numbers = (await invoiceLinks.evaluateAll((links) => links.map((link) => link.getAttribute('aria-label')))).map(
    (label) => label!.replace('Invoice ', ''),
  );
  const hrefs = await invoiceLinks.evaluateAll((links) => links.map((link) => link.getAttribute('href')!));

  // The discounted purchase's invoice: seller through the marketplace, buyer, totals, tax line.
  await invoiceLinks.nth(0).click();
  await expect(page.getByRole('heading', { level: 1, name: `Invoice ${numbers[0]}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'From' })).toContainText('Seller on AgentMarket');
  await expect(page.getByRole('region', { name: 'Billed to' })).toContainText(`${username}@example.com`);
  await expect(page.getByText('Marketplace: AgentMarket', { exact: false })).toBeVisible();
  await expect(fact(page, 'Invoice number')).toHaveText(numbers[0]!);
  await expect(fact(page, 'Payment method')).toHaveText('Test mode');
  await expect(fact(page, 'Status')).toHaveText('Paid');
  await expect(page.getByRole('cell', { name: `AI agent: ${second.name}` })).toBeVisible();
  await expect(total(page, 'Subtotal')).toHaveText(money(second.price));
  await expect(total(page, 'Discount (10% member discount)')).toHaveText(`−${money(discount)}`);
  await expect(total(page, 'Tax (0%)')).toHaveText('$0.00');
  await expect(total(page, 'Total')).toHaveText(money(secondPaid));
  await expect(page.getByText('Tax is charged at 0%', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print' })).toHaveCount(isJavaScriptProject() ? 1 : 0);
  await expectAccessible(page);
  // Printed: the invoice alone, without the site's header, navigation and footer.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('contentinfo')).toBeHidden();
  await expect(page.getByRole('link', { name: 'Back to Billing' })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: `Invoice ${numbers[0]}` })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // The membership charge: issued by the platform, no discount.
  await page.goto(hrefs[1]!);
  await expect(page.getByRole('region', { name: 'From' })).toContainText('AgentMarket');
  await expect(page.getByRole('region', { name: 'From' })).not.toContainText('Seller on');
  await expect(page.getByRole('cell', { name: /^Premium membership - monthly/ })).toContainText('Period: ');
  await expect(total(page, 'Subtotal')).toHaveText('$19.00');
  await expect(total(page, 'Discount (10% member discount)')).toHaveCount(0);
  await expect(total(page, 'Total')).toHaveText('$19.00');

  // The first purchase, at list price.
  await page.goto(hrefs[2]!);
  await expect(total(page, 'Subtotal')).toHaveText(money(first.price));
  await expect(total(page, 'Total')).toHaveText(money(first.price));

  // Download All: the CSV of the whole history.
  await page.goto('/dashboard/billing');
  await expect(history.getByRole('link', { name: 'Download All' })).toHaveAttribute(
    'href',
    '/dashboard/billing/export',
  );
  const csv = await page.request.get('/dashboard/billing/export');
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-disposition']).toMatch(
    new RegExp(`^attachment; filename="billing-history-${username}-`),
  );
  const lines = (await csv.text()).trimEnd().split('\r\n');
  expect(lines[0]).toBe('Date,Invoice,Kind,Description,Amount,Status,Payment Method');
  expect(lines.slice(1).map((line) => line.split(',').slice(1, 3).concat(line.split(',').slice(-3)))).toEqual([
    [numbers[0], 'purchase', secondPaid.toFixed(2), 'paid', 'Test mode'],
    [numbers[1], 'subscription', '19.00', 'paid', 'Test mode'],
    [numbers[2], 'purchase', first.price.toFixed(2), 'paid', 'Test mode'],
  ]);

  // Another member: the same URL is a 404, as if the invoice did not exist.
  const other = await otherMember(browser, page);
  await signUpNewUser(other, uniqueName('invother', test.info().project.name));
  for (const href of [hrefs[0]!, '/dashboard/billing/invoices/not-an-id']) {
    const response = await other.goto(href);
    expect(response?.status()).toBe(404);
    await expect(other.getByRole('heading', { name: 'Invoice not found' })).toBeVisible();
  }
  await other.goto('/dashboard/billing');
  await expect(other.getByRole('region', { name: 'Billing History' })).toContainText('No charges yet.');
  await other.context().close();
});

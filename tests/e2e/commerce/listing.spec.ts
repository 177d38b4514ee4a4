/**
 * Listing agents: demo_seller uploads an agent with a thumbnail and a JSON package,
 * publishes it, finds it in the marketplace; a fresh buyer buys it and downloads exactly that
 * package; the seller ships 2.0.0 with release notes; the buyer gets 2.0.0 as the latest and
 * 1.0.0 on request; the changelog shows both. Then the refusals: another seller's agent through a
 * forged form, a buyer posting to Upload, a script named x.png, a 20 MB package.
 *
 * Every agent made here has a name no other test uses; demo_seller's other agents are only read.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, SERVER_RENDERED, test } from '../fixtures';
import { signIn, signUpNewUser, uniqueName } from '../support/accounts';
import { manifest } from '../support/listing-files';
import { buyFromAgentPage } from '../support/buying';

const OTHER_SELLERS_AGENT = 'a0000000-0000-4000-8000-000000000002'; // nova_labs'
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function newSession(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: isJavaScriptProject() });
  return context.newPage();
}

/** A valid listing posted straight to an action, as a forged form would be. */
function listingFields(name: string) {
  return {
    intent: 'publish',
    name,
    description: 'Forged.',
    category: 'Sales',
    price: '5',
    features: '',
    version: '1.0.0',
    release_notes: '',
  };
}

test.describe('listing agents', () => {
  test('upload, publish, buy, download, version 2, changelog', async ({ page, browser }) => {
    // Two sign-ins, three uploads, a purchase and five downloads: up to two minutes on a busy
    // two-core machine, where CI has taken longer.
    test.setTimeout(180_000);
    const project = test.info().project;
    const name = `Lister ${uniqueName('ag', project.name)}`;
    const v1 = manifest(name, '1.0.0');
    const v2 = manifest(name, '2.0.0');

    await signIn(page, 'seller', '/dashboard/agents');
    await expect(page.getByRole('heading', { level: 1, name: 'My AI Agents' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Your agents' })).toBeVisible();
    await expectAccessible(page);

    // First try: a price over 300. The typed values and the stored thumbnail come back.
    await page.getByRole('link', { name: 'Upload Agent', exact: true }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Upload Agent' })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Description').fill('Finds the leads you are missing.');
    await page.getByLabel('Category').selectOption('Sales');
    await page.getByLabel('Price (USD)').fill('500');
    await page.getByLabel('Features').fill('Finds leads\nScores them');
    await page.getByLabel('Thumbnail').setInputFiles({ name: 'thumb.png', mimeType: 'image/png', buffer: PNG });
    await page
      .getByLabel('Package file')
      .setInputFiles({ name: 'lister.json', mimeType: 'application/json', buffer: v1 });
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('The price must be a number from 0 to 300')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Choose the package file again' })).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveValue(name);
    await expect(page.getByLabel('Features')).toHaveValue('Finds leads\nScores them');
    await expect(page.getByLabel('Keep the current thumbnail')).toBeChecked();

    await page.getByLabel('Price (USD)').fill('12.50');
    await page
      .getByLabel('Package file')
      .setInputFiles({ name: 'lister.json', mimeType: 'application/json', buffer: v1 });
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page).toHaveURL(/\/dashboard\/agents$/);
    await expect(page.getByRole('status').filter({ hasText: `${name} is published` })).toBeVisible();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
    await expect(row).toContainText('Published');
    await expect(row).toContainText('$12.50');
    await expect(row).toContainText('1.0.0');
    const editHref = await row.getByRole('link', { name: `Edit ${name}` }).getAttribute('href');
    const agentId = /\/dashboard\/agents\/([0-9a-f-]{36})\/edit$/.exec(editHref ?? '')?.[1];
    expect(agentId).toBeTruthy();

    // In the marketplace, with the stored thumbnail and the real date.
    await page.goto(`/marketplace?q=${encodeURIComponent(name)}`);
    const card = page.getByRole('article').filter({ hasText: name });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Updated today');
    const thumbnail = await card.getByRole('img').getAttribute('src');
    expect(thumbnail).toMatch(
      /^\/storage\/v1\/object\/public\/agent-images\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.png$/,
    );
    const image = await page.request.get(thumbnail!);
    expect(image.status()).toBe(200);
    expect(Buffer.from(await image.body()).equals(PNG)).toBe(true);

    // A fresh buyer buys it and downloads exactly that package.
    const buyer = await newSession(browser, project.use.baseURL);
    await signUpNewUser(buyer, uniqueName('lb', project.name));
    await buyer.goto(`/agent/${agentId}`);
    await buyFromAgentPage(buyer);
    await expect(buyer.getByText('In your collection', { exact: true })).toBeVisible();
    const first = await buyer.request.get(`/agent/${agentId}/download`);
    expect(first.status()).toBe(200);
    expect(first.headers()['content-disposition']).toBe('attachment; filename="lister.json"');
    expect(Buffer.from(await first.body()).equals(v1)).toBe(true);

    // Version 2: a lower number is refused, then 2.0.0 with release notes.
    await page.goto(`/dashboard/agents/${agentId}/edit`);
    await expect(page.getByRole('heading', { level: 1, name: `Edit ${name}` })).toBeVisible();
    await expectAccessible(page);
    await expect(page.getByLabel('Price (USD)')).toHaveValue('12.50');
    await page
      .getByLabel('New package file')
      .setInputFiles({ name: 'lister-2.json', mimeType: 'application/json', buffer: v2 });
    await page.getByLabel('Version').fill('1.0.0');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('The new version must be higher than 1.0.0.')).toBeVisible();
    await expect(page.getByText('Please describe what changed in this version.')).toBeVisible();
    await page
      .getByLabel('New package file')
      .setInputFiles({ name: 'lister-2.json', mimeType: 'application/json', buffer: v2 });
    await page.getByLabel('Version').fill('2.0.0');
    await page.getByLabel('Release notes').fill('Scores leads twice as fast.');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page).toHaveURL(/\/dashboard\/agents$/);
    await expect(row).toContainText('2.0.0');

    const latest = await buyer.request.get(`/agent/${agentId}/download`);
    expect(Buffer.from(await latest.body()).equals(v2)).toBe(true);
    const earlier = await buyer.request.get(`/agent/${agentId}/download?version=1.0.0`);
    expect(Buffer.from(await earlier.body()).equals(v1)).toBe(true);

    await buyer.goto(`/agent/${agentId}`);
    const changelog = buyer.getByRole('region', { name: 'Changelog' });
    const entries = changelog.getByTestId('changelog-entry');
    await expect(entries).toHaveCount(2);
    await expect(entries.nth(0)).toContainText('Version 2.0.0');
    await expect(entries.nth(0)).toContainText('Scores leads twice as fast.');
    await expect(entries.nth(1)).toContainText('Version 1.0.0');
    await expect(changelog.getByRole('link', { name: 'Download version 1.0.0' })).toHaveAttribute(
      'href',
      `/agent/${agentId}/download?version=1.0.0`,
    );
    await expectAccessible(buyer);

    // Signed out: the changelog, no Download.
    const visitor = await newSession(browser, project.use.baseURL);
    await visitor.goto(`/agent/${agentId}`);
    await expect(visitor.getByRole('region', { name: 'Changelog' }).getByTestId('changelog-entry')).toHaveCount(2);
    await expect(visitor.getByRole('link', { name: /^Download version/ })).toHaveCount(0);
    await Promise.all([buyer.context().close(), visitor.context().close()]);

    // Unpublish: it leaves the marketplace.
    await page.getByRole('button', { name: `Unpublish ${name}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `${name} is unpublished` })).toBeVisible();
    await expect(row).toContainText('Draft');
    await page.goto(`/marketplace?q=${encodeURIComponent(name)}`);
    await expect(page.getByRole('article').filter({ hasText: name })).toHaveCount(0);
  });

  test('a script named x.png is refused beside its field, with the typed values kept', async ({ page }) => {
    await signIn(page, 'seller', '/dashboard/upload');
    const name = `Scripted ${uniqueName('sc', test.info().project.name)}`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Thumbnail').setInputFiles({
      name: 'x.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<script>alert(1)</script>'),
    });
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await expect(page.getByText('x.png: Images must be JPEG, PNG, GIF or WebP files.')).toBeVisible();
    await expect(page.getByLabel('Thumbnail')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Name')).toHaveValue(name);

    const response = await page.request.post('/dashboard/upload', {
      multipart: {
        ...listingFields(name),
        draft_id: crypto.randomUUID(),
        thumbnail: { name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('<script>alert(1)</script>') },
      },
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain('x.png: Images must be JPEG, PNG, GIF or WebP files.');
  });

  test('a 20 MB package is refused with a clear message; other forms keep their 1 MB limit', async ({ page }) => {
    await signIn(page, 'seller', '/dashboard/upload');
    const name = `Heavy ${uniqueName('hv', test.info().project.name)}`;
    const response = await page.request.post('/dashboard/upload', {
      multipart: {
        ...listingFields(name),
        draft_id: crypto.randomUUID(),
        package: { name: 'big.zip', mimeType: 'application/zip', buffer: Buffer.alloc(20 * 1024 * 1024, 0x50) },
      },
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain('The package file can be at most 10 MB.');
    await page.goto('/dashboard/agents');
    await expect(page.getByRole('rowheader', { name })).toHaveCount(0);

    const elsewhere = await page.request.post('/dashboard/agents', {
      multipart: {
        intent: 'publish',
        padding: { name: 'p.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2 * 1024 * 1024) },
      },
    });
    expect(elsewhere.status()).toBe(413);
  });

  test(
    "another seller's agent: a forged edit or status change is a 404 and changes nothing",
    SERVER_RENDERED,
    async ({ page }) => {
      await signIn(page, 'seller', '/dashboard/agents');
      expect((await page.goto(`/dashboard/agents/${OTHER_SELLERS_AGENT}/edit`))?.status()).toBe(404);
      const forged = await page.request.post(`/dashboard/agents/${OTHER_SELLERS_AGENT}/edit`, {
        multipart: listingFields('Stolen agent'),
      });
      expect(forged.status()).toBe(404);
      const status = await page.request.post('/dashboard/agents', {
        form: { intent: 'archive', agentId: OTHER_SELLERS_AGENT },
      });
      expect(status.status()).toBe(404);
      await page.goto(`/agent/${OTHER_SELLERS_AGENT}`);
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Stolen agent');
      await expect(page.getByText('Archived: this agent is no longer on sale.')).toHaveCount(0);
    },
  );

  test('a buyer posting to Upload is refused with 403', SERVER_RENDERED, async ({ page }) => {
    await signUpNewUser(page, uniqueName('lu', test.info().project.name));
    const name = `Buyer upload ${uniqueName('bu', test.info().project.name)}`;
    const response = await page.request.post('/dashboard/upload', {
      multipart: { ...listingFields(name), draft_id: crypto.randomUUID() },
    });
    expect(response.status()).toBe(403);
    expect((await page.goto('/dashboard/upload'))?.status()).toBe(403);
    await page.goto(`/marketplace?q=${encodeURIComponent(name)}`);
    await expect(page.getByRole('article')).toHaveCount(0);
  });
});

/**
 * My AI Agents a page at a time, checked once (in the no-JavaScript run): a new seller with one agent more
 * than a page (25) sees the newest 25, 'Page 1 of 2' and a Next link; the oldest is on page 2,
 * where archiving it comes back to page 2 with the message. The list used to be one read of every
 * agent (at most 1,000 shown); the figures past 1,000 agents are checked against SQL in
 * app/server/many-agents.server.test.ts.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, SERVER_RENDERED, test } from '../fixtures';
import { signUpNewUser, uniqueName } from '../support/accounts';

const PAGE_SIZE = 25;

const rows = (page: Page) => page.getByRole('table', { name: 'Your agents' }).locator('tbody tr');
const row = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const pages = (page: Page) => page.getByRole('navigation', { name: 'Agent pages' });

test('My AI Agents shows 25 agents a page; a status change stays on its page', SERVER_RENDERED, async ({ page }) => {
  // pages are links; a status change with JavaScript is listing.spec.ts's
  test.slow(); // a sign-up, a seller form and 26 listings posted on a busy machine
  const seller = await signUpNewUser(page, uniqueName('pg', test.info().project.name));
  await page.goto('/become-seller');
  const become = page.locator('form[action="/become-seller"]');
  await become.getByLabel('I accept the seller terms').check();
  await become.getByRole('button', { name: 'Become a seller' }).click();
  await expect(page).toHaveURL(/\/dashboard\/agents$/);

  // One agent more than a page, saved as drafts one after the other (the first is the oldest).
  const names = Array.from({ length: PAGE_SIZE + 1 }, (_, index) => `${seller} agent ${index + 1}`);
  for (const name of names) {
    const response = await page.request.post('/dashboard/upload', {
      multipart: {
        intent: 'draft',
        name,
        description: 'One of many.',
        category: 'Sales',
        price: '5',
        features: '',
        version: '',
        release_notes: '',
        draft_id: crypto.randomUUID(),
      },
      maxRedirects: 0,
    });
    expect(response.status(), name).toBe(303);
  }

  await page.goto('/dashboard/agents');
  await expect(page.getByRole('heading', { level: 1, name: 'My AI Agents' })).toBeVisible();
  await expect(rows(page)).toHaveCount(PAGE_SIZE);
  await expect(row(page, names.at(-1)!)).toBeVisible();
  await expect(row(page, names[0]!)).toHaveCount(0);
  await expect(pages(page)).toContainText('Page 1 of 2');
  await expectAccessible(page);

  await pages(page).getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/dashboard\/agents\?page=2$/);
  await expect(rows(page)).toHaveCount(1);
  await expect(pages(page)).toContainText('Page 2 of 2');
  const oldest = row(page, names[0]!);
  await expect(oldest).toContainText('Draft');

  await oldest.getByRole('button', { name: `Archive ${names[0]}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/agents\?page=2$/);
  await expect(page.getByRole('status').filter({ hasText: `${names[0]} is archived` })).toBeVisible();
  await expect(row(page, names[0]!)).toContainText('Archived');

  await pages(page).getByRole('link', { name: 'Previous' }).click();
  await expect(page).toHaveURL(/\/dashboard\/agents$/);
  await expect(rows(page)).toHaveCount(PAGE_SIZE);
});

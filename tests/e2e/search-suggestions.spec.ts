/**
 * Suggestions as you type in the header's search box (ADR 063), a WAI-ARIA combobox: JavaScript
 * only. Without JavaScript the box is the plain search input of its GET form: typing and Enter go
 * to /marketplace?q=… (foundation.spec.ts, 'the header search submits to the marketplace', in both
 * projects, which also covers Enter without a chosen suggestion). What the endpoint answers is
 * checked against the real handler in app/routes/resources/search-suggestions.test.ts.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, hydrated, JAVASCRIPT_ONLY, test } from './fixtures';

const headerSearch = (page: Page) => page.getByRole('banner').getByRole('combobox', { name: 'Search AI agents' });
const suggestionList = (page: Page) => page.getByRole('listbox', { name: 'Search suggestions' });

/** Types `text` in the header's search box and waits for its suggestions. */
async function typeForSuggestions(page: Page, text: string) {
  await hydrated(page);
  await headerSearch(page).pressSequentially(text);
  await expect(suggestionList(page)).toBeVisible();
}

test(
  'the header search suggests agents, categories and creators as you type; the keys choose one',
  JAVASCRIPT_ONLY,
  async ({ page }) => {
    await page.goto('/help');
    const box = headerSearch(page);
    const list = suggestionList(page);
    await typeForSuggestions(page, 'qu');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await expect(box).toHaveAttribute('aria-autocomplete', 'list');
    await expect(box).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);
    await expect(box).not.toHaveAttribute('aria-activedescendant');
    // Grouped by kind, each option naming its kind; the count is announced politely.
    await expect(
      list
        .getByRole('group', { name: 'Creators' })
        .getByRole('option', { name: /^Quillworks Studio\W+Creator\W+@quillworks$/ }),
    ).toBeVisible();
    const options = list.getByRole('option');
    const count = await options.count();
    expect(count).toBeGreaterThan(1);
    await expect(page.getByText(`${count} suggestions`, { exact: true })).toHaveAttribute('aria-live', 'polite');

    // The arrow keys move the active option; focus stays in the box.
    const active = async (index: number) => {
      await expect(options.nth(index)).toHaveAttribute('aria-selected', 'true');
      await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(index).getAttribute('id'))!);
      await expect(box).toBeFocused();
    };
    await box.press('ArrowDown');
    await active(0);
    await box.press('ArrowDown');
    await active(1);
    await expect(options.first()).toHaveAttribute('aria-selected', 'false');
    await box.press('ArrowUp');
    await active(0);
    await box.press('ArrowUp');
    await active(count - 1);

    // Checked with the list open and an option active.
    await expectAccessible(page, {
      prepare: async (checking) => {
        await typeForSuggestions(checking, 'qu');
        await headerSearch(checking).press('ArrowDown');
      },
    });

    // Escape closes the list and keeps the text; a second Escape clears it.
    await box.press('Escape');
    await expect(list).toBeHidden();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expect(box).not.toHaveAttribute('aria-activedescendant');
    await expect(box).toHaveValue('qu');
    await box.press('Escape');
    await expect(box).toHaveValue('');

    // Enter on an active agent goes to its page, without a page load.
    await typeForSuggestions(page, 'podc');
    const podcast = list
      .getByRole('group', { name: 'Agents' })
      .getByRole('option', { name: /^Podcast Producer\W+Agent\W+Content Creation$/ });
    await expect(podcast).toBeVisible();
    const first = await options.count();
    for (let step = 0; step < first && (await podcast.getAttribute('aria-selected')) !== 'true'; step++) {
      await box.press('ArrowDown');
    }
    await expect(podcast).toHaveAttribute('aria-selected', 'true');
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await box.press('Enter');
    await expect(page).toHaveURL(/\/agent\/a0000000-0000-4000-8000-000000000027$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Podcast Producer' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await expect(list).toBeHidden();
  },
);

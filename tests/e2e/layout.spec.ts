/**
 * Looks like a live marketplace: every page at a 390 px phone and a 1366 px
 * desktop, in the light and the dark theme. What a person would see as broken fails the test: the
 * page scrolling sideways, text running out of its box (a long email under a button) and a label
 * pill broken over two lines. A full-page screenshot of each view with a problem is attached to
 * the report; with E2E_SCREENSHOTS=1, of every view (176 pictures, to look the pages over: they
 * took a third of the suite's longest test, so `npm test` does not take them by default). A table
 * cell must show all it holds, with no sideways scrolling (the dashboard's tables stack their rows on
 * a phone: app/components/ui/data-table.tsx).
 * Layout does not depend on JavaScript, so this runs once, in the no-JavaScript project: the
 * pages as the server draws them, which every visitor sees first (the checks run in Playwright's
 * own script world, which works with the page's scripts off), without hydrating each page.
 */
import type { Page } from '@playwright/test';
import { expect, SERVER_RENDERED, test } from './fixtures';
import { signIn, type DemoRole } from './support/accounts';

const AGENT = '/agent/a0000000-0000-4000-8000-000000000001';

const PAGES: Record<DemoRole | 'visitor', string[]> = {
  visitor: [
    '/',
    '/marketplace',
    '/marketplace?view=list',
    AGENT,
    '/categories',
    '/become-seller',
    '/sellers/demo_seller',
    '/pricing',
    '/docs',
    '/help',
    '/contact',
    '/community',
    '/status',
    '/api',
    '/terms',
    '/privacy',
    '/cookies',
    '/no-such-page',
    '/marketplace?auth=sign-up',
  ],
  buyer: [
    '/dashboard',
    '/dashboard/collection',
    '/dashboard/purchases',
    '/dashboard/membership',
    '/dashboard/billing',
    '/profile',
    '/profile?tab=privacy',
    '/profile?tab=notifications',
    '/profile?tab=security',
    '/profile?tab=data',
    '/profile/two-factor',
    AGENT,
  ],
  seller: [
    '/dashboard',
    '/dashboard/agents',
    '/dashboard/upload',
    '/dashboard/agents/a0000000-0000-4000-8000-000000000001/edit',
    '/dashboard/earnings',
    '/dashboard/analytics',
    '/become-seller',
  ],
  admin: [
    '/dashboard',
    '/dashboard/users',
    '/dashboard/moderation',
    '/dashboard/disputes',
    '/dashboard/system',
    '/dashboard/platform-analytics',
  ],
};

const EVERY_SCREENSHOT = process.env.E2E_SCREENSHOTS === '1';

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
];

/** What is visibly broken on the page as drawn now, one line per problem. */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) {
      problems.push(`the page scrolls sideways by ${root.scrollWidth - root.clientWidth}px`);
    }
    const name = (element: Element) =>
      `<${element.tagName.toLowerCase()}> "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60)}"`;
    const clipped = (element: Element) => {
      // Inside a box that scrolls or clips sideways (a wide table, a truncated line): by design.
      for (let box = element.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== 'visible') return true;
      }
      return false;
    };
    // A table cell shows all it holds: nothing cut off inside it, and no part of it hidden in a box
    // that would have to be scrolled sideways to read it (a wide table in an overflow-x box).
    for (const cell of document.body.querySelectorAll<HTMLElement>('td, th')) {
      if (cell.clientWidth === 0 || !cell.checkVisibility({ visibilityProperty: true })) continue;
      if (cell.scrollWidth > cell.clientWidth + 1) {
        problems.push(`table cell ${name(cell)} cuts off ${cell.scrollWidth - cell.clientWidth}px of its content`);
        continue;
      }
      const rect = cell.getBoundingClientRect();
      for (let box = cell.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowX === 'visible') continue;
        const view = box.getBoundingClientRect();
        // Visually hidden for screen readers only (a stacked table's headers): not on screen at all.
        if (view.width <= 1 || view.height <= 1) break;
        if (rect.right > view.right + 1 || rect.left < view.left - 1) {
          problems.push(`table cell ${name(cell)} is cut off: its box must be scrolled sideways to show it`);
        }
        break;
      }
    }
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      const ownText = [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim(),
      );
      if (!ownText || element.clientWidth === 0 || !element.checkVisibility({ visibilityProperty: true })) continue;
      const style = getComputedStyle(element);
      if (style.overflowX === 'visible' && element.scrollWidth > element.clientWidth + 1 && !clipped(element)) {
        problems.push(`${name(element)} runs ${element.scrollWidth - element.clientWidth}px out of its box`);
      }
      // A pill (rounded-full label) is one line: its text's line boxes share one top.
      if (style.borderTopLeftRadius.endsWith('px') && parseFloat(style.borderTopLeftRadius) >= 999) {
        const tops: number[] = [];
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) tops.push(rect.top);
        }
        if (tops.length && Math.max(...tops) - Math.min(...tops) > parseFloat(style.fontSize) * 0.8) {
          problems.push(`${name(element)} wraps onto more than one line`);
        }
      }
    }
    return problems;
  });
}

test.describe('every page at 390 px and 1366 px, light and dark', SERVER_RENDERED, () => {
  test.describe.configure({ timeout: 120_000 });

  for (const [who, urls] of Object.entries(PAGES)) {
    test(`${who}'s pages`, async ({ page }, testInfo) => {
      if (who !== 'visitor') await signIn(page, who as DemoRole);
      const found: string[] = [];
      for (const url of urls) {
        await page.setViewportSize(VIEWPORTS[0]!);
        await page.goto(url);
        await page.evaluate(() => document.fonts.ready);
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize(viewport);
          for (const colorScheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme });
            const label = `${url} at ${viewport.width}px, ${colorScheme}`;
            const problems = await layoutProblems(page);
            for (const problem of problems) found.push(`${label}: ${problem}`);
            if (problems.length === 0 && !EVERY_SCREENSHOT) continue;
            await testInfo.attach(label, {
              body: await page.screenshot({ fullPage: true, type: 'jpeg', quality: 40 }),
              contentType: 'image/jpeg',
            });
          }
        }
      }
      expect(found, 'layout problems').toEqual([]);
    });
  }
});

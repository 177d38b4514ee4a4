/**
 * Shared Playwright fixtures: every request off loopback is aborted, a console error fails the
 * test, and `expectAccessible` runs axe in light and dark theme. Axe needs JavaScript, so in
 * the no-JS project it runs in a JS context whose app bundles are blocked: the DOM stays
 * exactly as the server sent it.
 */
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

const EXPECTED_HTTP_ERROR = /^Failed to load resource: the server responded with a status of (4\d\d|503) /;

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** The axe rules (of those tags) whose outcome depends on colours: the dark theme runs these. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
/**
 * Rules outside those tags checked too: WCAG 2.5.3 Label in Name (experimental in axe, so in no
 * tag) and unique landmark names (a best practice). Run by name: enabling them through `options`
 * would switch on every best-practice rule.
 */
const EXTRA_RULES = ['label-content-name-mismatch', 'landmark-unique'];

async function keepOnLoopback(page: Page) {
  await page.route('**/*', (route) => {
    const host = new URL(route.request().url()).hostname;
    return host === '127.0.0.1' || host === 'localhost' ? route.continue() : route.abort();
  });
}

/**
 * The errors `page` logs from now on (for pages of contexts a test opens itself; the `page`
 * fixture's are checked automatically). A 4xx or 503 answer the test provoked on purpose (404
 * page, 400 form error, injected backend failure) is asserted by the test itself, so not kept.
 */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !EXPECTED_HTTP_ERROR.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

export const test = base.extend<{ consoleErrors: string[]; javaScriptEnabled: boolean }>({
  page: async ({ page }, use) => {
    await keepOnLoopback(page);
    await use(page);
  },
  consoleErrors: [
    async ({ page }, use) => {
      const errors = collectConsoleErrors(page);
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export function isJavaScriptProject(): boolean {
  return test.info().project.use.javaScriptEnabled !== false;
}

/**
 * No axe violations of any impact (WCAG 2.0 to 2.2, A and AA) on the current page, in light and in dark theme: the page
 * is opened once more in a context of its own (the theme cookie left out, so the server renders
 * the `system` theme) and checked with the light, then the dark colour scheme emulated.
 */
export async function expectAccessible(page: Page) {
  const url = page.url();
  const browser = page.context().browser();
  if (!browser) throw new Error('No browser');
  const context = await browser.newContext({ javaScriptEnabled: true, colorScheme: 'light' });
  await context.addCookies((await page.context().cookies()).filter((cookie) => cookie.name !== 'am_theme'));
  const axePage = await context.newPage();
  await axePage.route('**/*', (route) => {
    const target = new URL(route.request().url());
    if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') return route.abort();
    if (!isJavaScriptProject() && target.pathname.startsWith('/assets/') && target.pathname.endsWith('.js')) {
      return route.abort();
    }
    return route.continue();
  });
  await axePage.goto(url);
  for (const colorScheme of ['light', 'dark'] as const) {
    await axePage.emulateMedia({ colorScheme });
    // Colour transitions (Tailwind's `transition`) and animations would be measured half-way:
    // end them (an endless one cannot finish: it is cancelled).
    await axePage.evaluate(() => {
      document.body.getBoundingClientRect(); // the style recalculation that starts transitions
      for (const animation of document.getAnimations()) {
        try {
          animation.finish();
        } catch {
          animation.cancel();
        }
      }
    });
    // Every rule in the light theme; in the dark one only the rules that read colours, since the
    // others (names, roles, structure) do not change with the theme.
    const axe = () => new AxeBuilder({ page: axePage });
    const violations =
      colorScheme === 'light'
        ? [
            ...(await axe().withTags(AXE_TAGS).analyze()).violations,
            ...(await axe().withRules(EXTRA_RULES).analyze()).violations,
          ]
        : (await axe().withRules(COLOUR_RULES).analyze()).violations;
    expect(
      violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        colorScheme,
        nodes: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
      })),
      `axe violations on ${url} (${colorScheme})`,
    ).toEqual([]);
  }
  await context.close();
}

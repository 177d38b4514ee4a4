/**
 * Shared Playwright fixtures: a console error fails the test, and `expectAccessible` runs axe in
 * light and dark theme. Axe needs JavaScript, so in the no-JS project it runs in a JS context
 * whose app bundles are blocked: the DOM stays exactly as the server sent it. No request leaves
 * loopback: the browser's proxy is a closed local port (playwright.config.ts), so a request to
 * any other host fails and its console error fails the test.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import type AxeCore from 'axe-core';

const EXPECTED_HTTP_ERROR = /^Failed to load resource: the server responded with a status of (4\d\d|503) /;

/**
 * axe-core's browser build, evaluated in the page once per check; both themes then run in it (a
 * third of the time @axe-core/playwright took, which injects it and opens a page per analysis).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** The axe rules (of those tags) whose outcome depends on colours: the dark theme runs these. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
/**
 * Rules outside those tags checked too: WCAG 2.5.3 Label in Name (experimental in axe, so in no
 * tag) and unique landmark names (a best practice).
 */
const EXTRA_RULES = ['label-content-name-mismatch', 'landmark-unique'];

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
 * With JavaScript, waits until React has hydrated the page (its DOM nodes then carry React's
 * properties): a key pressed earlier acts on the server's HTML, without the page's handlers.
 */
export async function hydrated(page: Page) {
  if (!isJavaScriptProject()) return;
  await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith('__reactFiber$')));
}

/**
 * Tags for a test that runs in one of the two runs only (playwright.config.ts leaves it out of the
 * other's list, so it costs that run nothing: no page, no hooks).
 *
 * `SERVER_RENDERED`: a test of what the server renders or answers (a page's content, a redirect, a
 * status), whose outcome does not depend on the browser's JavaScript: it runs once, in the
 * no-JavaScript project. The flows a user performs (forms, navigation, dialogs) still run in both.
 *
 * `JAVASCRIPT_ONLY`: a test of what only the page's scripts do (client-side navigation, a
 * dialog's keyboard handling, pending UI), or a check that runs once and is the JavaScript run's
 * share (cookie flags, replayed cookies): it runs in the JavaScript project only.
 */
export const SERVER_RENDERED = { tag: '@server-rendered' };
export const JAVASCRIPT_ONLY = { tag: '@javascript-only' };

/**
 * The page axe checks in, one per worker and browser, reused from check to check: the first load
 * of a new page costs a new renderer process and cold caches (about a CPU-second here), a load in
 * a page already open about a third of that. Each check starts with no cookies; the checked page's
 * cookies are then copied in.
 */
const checkingPages = new WeakMap<Browser, Promise<Page>>();

async function checkingPage(page: Page): Promise<Page> {
  const browser = page.context().browser();
  if (!browser) throw new Error('No browser');
  let opened = checkingPages.get(browser);
  if (!opened) {
    opened = (async () => {
      const context = await browser.newContext({ javaScriptEnabled: true, colorScheme: 'light' });
      const axePage = await context.newPage();
      if (!isJavaScriptProject()) await axePage.route('**/assets/**/*.js', (route) => route.abort());
      return axePage;
    })();
    checkingPages.set(browser, opened);
  }
  const axePage = await opened;
  await axePage.context().clearCookies();
  return axePage;
}

/**
 * No axe violations of any impact (WCAG 2.0 to 2.2, A and AA) on the current page, in light and in dark theme: the page
 * is opened once more in the checking page, a context of its own (the theme cookie left out, so the server renders
 * the `system` theme) and checked with the light, then the dark colour scheme emulated. `prepare` brings the checking
 * page to a state its URL does not hold (a list opened by typing) before the check.
 */
export async function expectAccessible(
  page: Page,
  { prepare }: { prepare?: (checking: Page) => Promise<unknown> } = {},
) {
  // The DOM the server sends is the DOM the JavaScript run starts from and checks: the
  // no-JavaScript run checks only the tests that run without JavaScript alone.
  const runsOnlyHere = test.info().tags.includes(SERVER_RENDERED.tag);
  if (!isJavaScriptProject() && !runsOnlyHere) return;
  const url = page.url();
  const axePage = await checkingPage(page);
  await axePage.context().addCookies((await page.context().cookies()).filter((cookie) => cookie.name !== 'am_theme'));
  await axePage.emulateMedia({ colorScheme: 'light' });
  await axePage.goto(url);
  await prepare?.(axePage);
  // Evaluated through the DevTools protocol, so the page's Content-Security-Policy does not apply.
  await axePage.evaluate(AXE_SOURCE);
  for (const colorScheme of ['light', 'dark'] as const) {
    await axePage.emulateMedia({ colorScheme });
    // Every rule in the light theme; in the dark one only the rules that read colours, since the
    // others (names, roles, structure) do not change with the theme.
    const options =
      colorScheme === 'light'
        ? {
            runOnly: { type: 'tag', values: AXE_TAGS },
            rules: Object.fromEntries(EXTRA_RULES.map((rule) => [rule, { enabled: true }])),
          }
        : { runOnly: { type: 'rule', values: COLOUR_RULES } };
    const violations = await axePage.evaluate(async (runOptions) => {
      // Colour transitions (Tailwind's `transition`) and animations would be measured half-way:
      // end them (an endless one cannot finish: it is cancelled).
      document.body.getBoundingClientRect(); // the style recalculation that starts transitions
      for (const animation of document.getAnimations()) {
        try {
          animation.finish();
        } catch {
          animation.cancel();
        }
      }
      const axe = (window as unknown as { axe: typeof AxeCore }).axe;
      const results = await axe.run(document, { ...(runOptions as object), resultTypes: ['violations'] });
      return results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
      }));
    }, options);
    expect(
      violations.map((violation) => ({ ...violation, colorScheme })),
      `axe violations on ${url} (${colorScheme})`,
    ).toEqual([]);
  }
  // The checking page stays open for the next check (checkingPage).
}

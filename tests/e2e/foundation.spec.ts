import type { Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  hydrated,
  isJavaScriptProject,
  JAVASCRIPT_ONLY,
  SERVER_RENDERED,
  test,
} from './fixtures';

const FOOTER_PAGES = [
  ['/pricing', 'Pricing'],
  ['/docs', 'Documentation'],
  ['/help', 'Help Center'],
  ['/contact', 'Contact Us'],
  ['/community', 'Community'],
  ['/status', 'System Status'],
  ['/api', 'API'],
  ['/terms', 'Terms of Service'],
  ['/privacy', 'Privacy Policy'],
  ['/cookies', 'Cookie Policy'],
  ['/categories', 'Categories'],
  ['/become-seller', 'Sell your AI agents to the world'],
] as const;

/** The theme the `am_theme` cookie holds (React Router's unsigned cookies are base64 JSON). */
async function themeCookie(page: Page): Promise<unknown> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'am_theme');
  return cookie ? JSON.parse(Buffer.from(decodeURIComponent(cookie.value), 'base64').toString()) : undefined;
}

test.describe('shared layout', () => {
  test('the home page has the header, footer and a title', SERVER_RENDERED, async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle(/AgentMarket/);
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Marketplace' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Categories' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Become a Seller' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(header.getByRole('searchbox', { name: 'Search AI agents' })).toHaveAttribute(
      'placeholder',
      'Search AI agents',
    );
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' })).toBeVisible();
    await expectAccessible(page);
  });

  test(
    'the home page figures are the marketplace’s, and it claims nothing it cannot back',
    SERVER_RENDERED,
    async ({ page }) => {
      await page.goto('/marketplace');
      const line = await page
        .getByRole('status')
        .filter({ hasText: /^Showing/ })
        .textContent();
      const listed = /of (\d+) agents/.exec(line ?? '')?.[1];
      expect(Number(listed)).toBeGreaterThan(0);
      await page.goto('/');
      const figure = (label: RegExp) =>
        page
          .getByRole('main')
          .locator('dl > div')
          .filter({ has: page.locator('dt', { hasText: label }) })
          .locator('dd');
      await expect(figure(/^AI agents?$/)).toHaveText(listed!);
      await expect(figure(/^Sellers?$/)).toHaveText(/^\d+$/);
      await expect(figure(/^Purchases?$/)).toHaveText(/^\d[\d,]*\+?$/);
      await expect(figure(/^Average rating of \d+ reviews?$/)).toHaveText(/^[1-5]\.\d$/);
      await expect(page.getByRole('main')).not.toContainText(/Success rate|Awards|thousands|10,000\+|50,000\+/);
      const howItWorks = page.getByRole('link', { name: 'See How It Works' });
      await expect(howItWorks).toHaveAttribute('href', '#how-it-works');
      await expect(page.locator('#how-it-works')).toHaveText('How It Works');
    },
  );

  test('the header search submits to the marketplace', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    // With JavaScript the box is a combobox (suggestions as you type); Enter without a chosen
    // suggestion still submits the search.
    const role = isJavaScriptProject() ? 'combobox' : 'searchbox';
    const search = page.getByRole('banner').getByRole(role, { name: 'Search AI agents' });
    await search.fill('invoice');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/marketplace\?q=invoice$/);
  });

  test('the theme toggle switches and remembers the theme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/pricing');
    const html = page.locator('html');
    await expect(html).toHaveClass('system');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(html).toHaveClass('dark');
    await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
    if (isJavaScriptProject()) {
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    }
    // With JavaScript the reload may come before the server stored the cookie: local storage holds the choice.
    await page.reload();
    await expect(html).toHaveClass('dark');
    await expect.poll(() => themeCookie(page)).toBe('dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(html).toHaveClass('light');
    await expect(page).toHaveURL(/\/pricing$/);
  });

  test(
    'the theme saved in local storage is the initial value, and the cookie follows it',
    JAVASCRIPT_ONLY,
    async ({ page }) => {
      // local storage is read by a script
      await page.emulateMedia({ colorScheme: 'light' });
      await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
      // Before any module runs: the app's scripts are held back, so only the inline <head> script acts.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/*.js', async (route) => {
        await held;
        await route.continue();
      });
      const response = await page.goto('/help', { waitUntil: 'commit' });
      expect(await response?.text()).toContain('<html lang="en" class="system"');
      const html = page.locator('html');
      await expect(html).toHaveClass('dark');
      await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
      // Once the app runs, the cookie follows, so the server renders the choice from the first byte.
      release();
      await expect.poll(() => themeCookie(page)).toBe('dark');
      await page.reload();
      await expect(html).toHaveClass('dark');
    },
  );

  test('the system dark preference renders dark from the first byte', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/help');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');
    await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
  });

  test('the mobile menu opens and closes', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/help');
    const menu = page.getByLabel('Menu', { exact: true });
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await expect(mobileNav).toBeHidden();
    await menu.click();
    await expect(mobileNav.getByRole('link', { name: 'Become a Seller' })).toBeVisible();
    await menu.click();
    await expect(mobileNav).toBeHidden();
  });

  test('every footer page exists', SERVER_RENDERED, async ({ page }) => {
    for (const [path, heading] of FOOTER_PAGES) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
  });

  test('an unknown URL is a 404 page inside the layout', SERVER_RENDERED, async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Marketplace' })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('newsletter', () => {
  test('subscribes a valid address and refuses an invalid one', async ({ page }) => {
    await page.goto('/help');
    const footer = page.getByRole('contentinfo');
    const email = footer.getByRole('textbox', { name: 'Email address' });
    await email.fill('not-an-email@');
    // Bypass the browser's own check to reach the server's validation.
    await page.evaluate(() => document.getElementById('newsletter')?.setAttribute('novalidate', ''));
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByRole('alert')).toHaveText('Please enter a valid email address.');
    await expect(footer.getByRole('textbox', { name: 'Email address' })).toHaveValue('not-an-email@');

    const address = `reader-${test.info().project.name}-${Date.now()}@example.com`;
    await footer.getByRole('textbox', { name: 'Email address' }).fill(address);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByRole('status')).toHaveText("Thanks for subscribing! You'll hear from us soon.");
    await expect(page).toHaveURL(/\/help/);

    // The same address again: already subscribed (unique violation), same friendly answer.
    const again = await page.request.post('/resources/newsletter', { form: { email: address } });
    expect(again.status()).toBe(200);
    expect(await again.json()).toMatchObject({
      ok: true,
      message: "Thanks for subscribing! You'll hear from us soon.",
    });
  });
});

test.describe('HTTP layer', () => {
  test(
    'serves robots.txt: the catalogue open to crawlers, sign-in and actions closed',
    SERVER_RENDERED,
    async ({ request }) => {
      const response = await request.get('/robots.txt');
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toMatch(/^text\/plain/);
      const lines = (await response.text()).split('\n');
      expect(lines).toContain('User-agent: *');
      for (const path of ['/*?auth=', '/*&auth=', '/auth/', '/resources/', '/agent/*/download']) {
        expect(lines).toContain(`Disallow: ${path}`);
      }
      // An account page sends a signed-out crawler to the sign-in dialog, an address closed above.
      const account = await request.get('/dashboard/collection', { maxRedirects: 0 });
      expect(account.status()).toBe(302);
      expect(new URL(account.headers()['location'] ?? '', 'http://x').search).toMatch(/^\?auth=sign-in/);
      // Nothing closes the whole site or the catalogue.
      for (const path of ['/', '/marketplace', '/agent', '/agent/', '/sellers/', '/categories']) {
        expect(lines).not.toContain(`Disallow: ${path}`);
      }
    },
  );

  test('sends security headers with a fresh nonce per request', SERVER_RENDERED, async ({ request }) => {
    const first = await request.get('/');
    const second = await request.get('/');
    const csp = first.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(first.headers()['x-content-type-options']).toBe('nosniff');
    expect(first.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(first.headers()['x-powered-by']).toBeUndefined();
    const nonceOf = (policy: string) => /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonceOf(csp)).not.toBe(nonceOf(second.headers()['content-security-policy'] ?? ''));
    const html = await first.text();
    const scriptTags = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scriptTags.length).toBeGreaterThan(0);
    for (const tag of scriptTags) expect(tag).toContain(`nonce="${nonceOf(csp)}"`);
    // The stylesheet is written into the page, admitted by the same nonce and by nothing else.
    expect(csp).toContain(`style-src 'self' 'nonce-${nonceOf(csp)}';`);
    // (A base64 nonce may hold `+`: compared as text, not as a pattern.)
    const styleTag = `<style id="app-stylesheet" nonce="${nonceOf(csp)}">`;
    expect(html).toContain(styleTag);
    expect(html.slice(html.indexOf(styleTag)).split('</style>')[0]).toContain('.container-page');
    expect(html).not.toContain('rel="stylesheet"');
  });

  test('styles the page from the stylesheet in the document, without or with JavaScript', async ({ page }) => {
    await page.goto('/help');
    const link = page.getByRole('link', { name: 'Skip to content' });
    // Tailwind's sr-only: styled, the link is clipped out of sight until it is focused.
    expect(await link.evaluate((element) => getComputedStyle(element).clipPath)).toBe('inset(50%)');
    await page.getByRole('banner').getByRole('link', { name: 'Marketplace' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'AI Agent Marketplace' })).toBeVisible();
    expect(
      await page.locator('style#app-stylesheet').evaluate((element) => element.textContent?.length),
    ).toBeGreaterThan(10_000);
  });

  test('refuses an oversized form body with 413', SERVER_RENDERED, async ({ request }) => {
    const response = await request.post('/resources/newsletter', {
      data: `email=${'a'.repeat(2 * 1024 * 1024)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status()).toBe(413);
  });

  test('answers /healthz with the backend state', SERVER_RENDERED, async ({ request }) => {
    const response = await request.get('/healthz');
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'up' });
  });

  test('refuses a cross-site POST', SERVER_RENDERED, async ({ request }) => {
    const response = await request.post('/resources/newsletter', {
      form: { email: 'victim@example.com' },
      headers: { Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(response.status()).toBe(403);
  });

  test('serves hashed assets with immutable caching', SERVER_RENDERED, async ({ request }) => {
    // From the server's HTML: after hydration React Router's <Scripts> renders no preload links,
    // so a re-render of the layout removes them from the live page.
    const html = await (await request.get('/help')).text();
    const href = /<link rel="modulepreload" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toMatch(/^\/assets\/[\w.-]+\.js$/);
    const response = await request.get(href!);
    expect(response.headers()['cache-control']).toContain('immutable');
  });

  test(
    'caches the stock artwork for a week and other public files for an hour',
    SERVER_RENDERED,
    async ({ request }) => {
      const artwork = await request.get('/thumbnails/sales-1.svg');
      expect(artwork.status()).toBe(200);
      expect(artwork.headers()['cache-control']).toBe('public, max-age=604800');
      const icon = await request.get('/favicon.svg');
      expect(icon.headers()['cache-control']).toBe('public, max-age=3600');
    },
  );
});

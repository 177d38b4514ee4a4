/**
 * The first hour: what a newcomer trips on. Each block is one such trip-up.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, JAVASCRIPT_ONLY, SERVER_RENDERED, test } from './fixtures';
import { signIn } from './support/accounts';
import { killServers, startServer, type ServerProcess } from './support/server-process';

// A seeded agent (supabase/seed.sql: agent n has id a0000000-0000-4000-8000-<n, 12 digits>).
const AGENT = '/agent/a0000000-0000-4000-8000-000000000001';

/**
 * Every page of app/routes.ts that renders the header and that a signed-out visitor reaches,
 * with the query strings the page canonicalises (the marketplace's filters, defaults, junk).
 */
const HEADER_PAGES: Record<string, string[]> = {
  '': ['/'],
  marketplace: [
    '/marketplace',
    '/marketplace?category=sales&maxPrice=200',
    '/marketplace?sort=newest&view=grid&page=1',
    '/marketplace?page=2',
    '/marketplace?q=email&minRating=9&robots=1',
  ],
  'agent/:agentId': [AGENT],
  cart: ['/cart'],
  categories: ['/categories'],
  'become-seller': ['/become-seller'],
  'sellers/:username': ['/sellers/demo_seller'],
  pricing: ['/pricing'],
  docs: ['/docs'],
  help: ['/help'],
  contact: ['/contact'],
  community: ['/community'],
  status: ['/status'],
  api: ['/api'],
  terms: ['/terms'],
  privacy: ['/privacy'],
  'seller-policy': ['/seller-policy', '/terms?version=1'],
  cookies: ['/cookies'],
  'auth/sign-in': ['/auth/sign-in'],
  'auth/sign-up': ['/auth/sign-up'],
  'auth/forgot-password': ['/auth/forgot-password'],
  '*': ['/no-such-page'],
};

/** Routes a signed-out visitor never sees with the header, and why. */
const NOT_HEADER_PAGES: Record<string, string> = {
  profile: 'signed in only: it redirects to the sign-in dialog over the home page',
  'agent/:agentId/review': 'signed in only (rating an agent): it redirects to the sign-in dialog',
  checkout: 'agent/:agentId/checkout, signed in only (the order summary): it redirects to the sign-in dialog',
  'auth/reset-password': 'needs the recovery session of an email link',
  setup: 'a one-time link from the server log; 404 otherwise',
  'profile/two-factor': 'signed in only: it redirects to the sign-in dialog over the home page',
  'auth/two-factor': 'only for a session that owes a second-factor code; others are sent on',
  '__perf/fixture': 'a benchmark fixture, 404 unless enabled',
  'policies/accept': 'signed in only (updated policies to accept): it redirects to the sign-in dialog',
};

test.describe('the header opens the sign-in dialog on every page', () => {
  test('app/routes.ts has no page this list forgets', () => {
    const source = readFileSync('app/routes.ts', 'utf8');
    const paths = [...source.matchAll(/route\('(?<path>[^']+)',\s*'routes\/(?<file>[^']+)'(?:,\s*\{[^}]*\})?\)/g)]
      .map((match) => ({ path: match.groups?.path ?? '', file: match.groups?.file ?? '' }))
      .filter(({ file }) => !file.endsWith('.ts')) // resource routes render nothing
      .map(({ path }) => path);
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      expect(path in HEADER_PAGES || path in NOT_HEADER_PAGES, `${path} is listed`).toBe(true);
    }
  });

  // Without JavaScript the header's Sign In is a plain link and the dialog is the page the server
  // sends for it: checked on every page over HTTP, as a browser without JavaScript would follow it
  // (no page load in Chromium needed). With JavaScript the link opens the dialog in place: one page
  // of each kind (a page, a canonicalised query, an agent, the not-found page) in the browser.
  test(
    'every page: the header’s Sign In leads to the page with the Welcome back dialog open',
    SERVER_RENDERED,
    async ({ request }) => {
      const failures: string[] = [];
      for (const url of Object.values(HEADER_PAGES).flat()) {
        const header = /<header[\s\S]*?<\/header>/.exec(await (await request.get(url)).text())?.[0] ?? '';
        const href = /<a\b[^>]*\bhref="([^"]*)"[^>]*>Sign In<\/a>/.exec(header)?.[1]?.replaceAll('&amp;', '&');
        if (!href) {
          failures.push(`${url}: no Sign In link in the header`);
          continue;
        }
        if (new URLSearchParams(href.split('?')[1] ?? '').get('auth') !== 'sign-in') failures.push(`${url}: ${href}`);
        const opened = await (await request.get(href)).text();
        if (!/<dialog\b[^>]*\bopen\b[^>]*>[\s\S]*?Welcome back/.test(opened))
          failures.push(`${url}: ${href} shows no dialog`);
      }
      expect(failures).toEqual([]);
    },
  );

  for (const url of ['/', '/marketplace?page=2', AGENT, '/no-such-page']) {
    test(`Sign In opens 'Welcome back' in place on ${url}`, JAVASCRIPT_ONLY, async ({ page }) => {
      // the no-JavaScript run follows the link on every page above
      await page.goto(url);
      await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
      await expect(page.getByRole('dialog', { name: 'Welcome back' })).toBeVisible();
      expect(new URL(page.url()).searchParams.get('auth')).toBe('sign-in');
    });
  }

  test('the marketplace keeps a sign-up dialog and its parameters through its canonical redirect', async ({ page }) => {
    await page.goto('/marketplace?sort=newest&auth=sign-up&accountType=seller&redirectTo=%2Fdashboard');
    await expect(page).toHaveURL(/\/marketplace\?auth=sign-up&redirectTo=%2Fdashboard&accountType=seller$/);
    const dialog = page.getByRole('dialog', { name: 'Create your account' });
    await expect(dialog.getByRole('radio', { name: /Seller/ })).toBeChecked();
  });
});

/** Whether anything still answers on the server's port. */
async function answers(server: ServerProcess): Promise<boolean> {
  return fetch(`${server.origin}/healthz`).then(
    () => true,
    () => false,
  );
}

async function exitWithin(server: ServerProcess, ms: number): Promise<number | null | 'still running'> {
  const timeout = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms));
  return Promise.race([server.exited, timeout]);
}

/**
 * `npm start` as a newcomer runs it, one server for the whole block (a start on a new database is
 * the slow part): `SUPABASE_URL` set but empty (a copied `.env`) and no `APP_URL`, the
 * development tools on for the outbox. Its checks in order, the stop last.
 */
test.describe('`npm start` on a new machine', () => {
  test.describe.configure({ mode: 'serial' });
  let server: ServerProcess;

  test.beforeAll(async () => {
    test.skip(test.info().project.name !== 'js', 'runs its own server once, in the js project');
    test.setTimeout(180_000);
    server = await startServer(
      'memory',
      { SUPABASE_URL: '', SUPABASE_ANON_KEY: '', APP_URL: '', ENABLE_DEV_TOOLS: 'true' },
      ['npm', 'start'],
    );
  });
  test.afterAll(() => killServers());

  test('starts on the embedded backend with SUPABASE_URL set but empty, and prints no unexplained warning', async () => {
    expect(server.output()).toContain('Backend: embedded Supabase stand-in');
    const health = await fetch(`${server.origin}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
    expect((await fetch(`${server.origin}/`)).status).toBe(200);
    // A clean start prints only what an operator needs: no warning but the ones the README explains.
    const warnings = server
      .output()
      .split('\n')
      .filter((line) => /warn|deprecat/i.test(line))
      .filter((line) => !/^npm warn Unknown (user|env) config/.test(line)); // this machine's npm settings
    // supabase-js's notice on Node 20 (README), once: twice meant two copies of supabase-js loaded.
    const node20 = (line: string) => line.includes('Node.js 20 and below are deprecated');
    expect(warnings.filter(node20)).toHaveLength(process.versions.node.startsWith('20.') ? 1 : 0);
    expect(warnings.filter((line) => !node20(line))).toEqual([]);
  });

  test('opened on 127.0.0.1 without APP_URL, the emailed link and the Google sign-in stay on 127.0.0.1', async ({
    page,
  }) => {
    // No APP_URL: the server itself knows only `localhost:<port>`; the browser uses 127.0.0.1.
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    await page.goto(`${server.origin}/auth/forgot-password`);
    await page.locator('form[action="/auth/forgot-password"]').getByLabel('Email').fill('buyer@demo.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'If an account exists for that email' })).toBeVisible();
    const outbox = await page.request.get(`${server.origin}/auth/v1/_local/outbox.json?to=buyer%40demo.test`);
    const { emails } = (await outbox.json()) as { emails: { type: string; link: string }[] };
    const recovery = emails.find((message) => message.type === 'recovery');
    expect(recovery?.link).toMatch(new RegExp(`^${server.origin}/auth/v1/verify\\?`));
    expect(new URL(recovery!.link).searchParams.get('redirect_to')).toMatch(new RegExp(`^${server.origin}/`));

    await page.goto(`${server.origin}/?auth=sign-in`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in with Google' })).toBeVisible();
    await page.getByLabel('Email').fill('grace@gmail.example');
    await page.getByLabel('Display name').fill('Grace Google');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${server.origin}/dashboard`);
    // Google's picture is not kept (a profile picture is an upload of the user's own): the
    // account menu shows the initials, and no picture from another address.
    const menu = page.getByRole('banner').getByLabel(/Account menu for/);
    await expect(menu).toBeVisible();
    await expect(menu.locator('img')).toHaveCount(0);
  });

  test('SIGTERM to npm stops the server gracefully with its code', async () => {
    server.child.kill('SIGTERM');
    expect(await exitWithin(server, 12_000)).toBe(0);
    expect(server.output()).toContain('Closed cleanly');
    expect(await answers(server)).toBe(false);
  });
});

test.describe('a wrapper around `npm start`', () => {
  test.afterAll(() => killServers());

  test('a wrapper that dies without passing the signal on does not leave the server running', async () => {
    test.skip(test.info().project.name !== 'js', 'runs its own server once, in the js project');
    test.setTimeout(180_000);
    // A shell that runs start.js as its child (no exec), as npm's shell did before; a deployment's
    // start (no demo data to load): the signal handling is the same either way.
    const server = await startServer('memory', { DEMO_MODE: 'false' }, ['sh', '-c', 'node scripts/start.js; exit $?']);
    server.child.kill('SIGTERM');
    await expect.poll(() => answers(server), { timeout: 12_000 }).toBe(false);
    expect(server.output()).toContain('SIGTERM received');
  });
});

/**
 * The focus ring of the focused element, and the colour it is drawn on (the first opaque
 * background behind it), as sRGB, with the contrast between the two (WCAG 2.2 2.4.13).
 */
function focusRing(page: Page) {
  return page.evaluate(async () => {
    // Colours fade in (transition-colors, the header's transition-all): measure where they end.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => {})));
    const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgb = (color: string) => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = color;
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
      return { r: r!, g: g!, b: b!, a: a! };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const [R, G, B] = [r, g, b].map((v) =>
        v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4,
      );
      return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
    };
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    let behind = rgb('white');
    for (let node = element.parentElement; node; node = node.parentElement) {
      const color = rgb(getComputedStyle(node).backgroundColor);
      if (color.a === 255) {
        behind = color;
        break;
      }
    }
    const [light, dark] = [luminance(rgb(style.outlineColor)), luminance(behind)].sort((x, y) => y - x);
    return {
      style: style.outlineStyle,
      width: parseFloat(style.outlineWidth),
      offset: parseFloat(style.outlineOffset),
      contrast: Math.round(((light! + 0.05) / (dark! + 0.05)) * 100) / 100,
    };
  });
}

test.describe('the sign-in dialog is modal', () => {
  test(
    'focus: a visible ring on Sign In, the first field in the dialog, Tab inside, Escape back, the heading after signing in',
    JAVASCRIPT_ONLY,
    async ({ page }) => {
      // keyboard handling of the modal dialog needs JavaScript
      await page.goto('/pricing');
      const signInLink = page.getByRole('banner').getByRole('link', { name: 'Sign In' });
      await signInLink.focus();
      // The brand-coloured button's ring: 2px, 2px away from it, at least 3:1 against the header in both themes.
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        const ring = await focusRing(page);
        expect(ring, colorScheme).toMatchObject({ style: 'solid' });
        expect(ring.width, colorScheme).toBeGreaterThanOrEqual(2);
        expect(ring.offset, colorScheme).toBeGreaterThanOrEqual(2);
        expect(ring.contrast, colorScheme).toBeGreaterThanOrEqual(3);
      }
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Welcome back' });
      await expect(dialog).toBeVisible();
      await expect(page).toHaveURL(/\/pricing\?auth=sign-in$/);
      // Focus starts in its first field.
      await expect(dialog.getByLabel('Email')).toBeFocused();
      // Focus is inside the dialog, or (after its last control) briefly in the browser's own UI,
      // which leaves the document's body active: never on the page behind.
      const focusBehind = () =>
        page.evaluate(() => {
          const active = document.activeElement;
          return active !== null && active !== document.body && !active.closest('dialog[open]')
            ? active.outerHTML
            : null;
        });
      await expect(page.locator('dialog[open]')).toContainText('Welcome back');
      await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))).toBe(true);
      for (let step = 0; step < 25; step++) {
        await page.keyboard.press(step % 5 === 4 ? 'Shift+Tab' : 'Tab');
        expect(await focusBehind(), `focus after ${step + 1} key presses`).toBeNull();
      }
      await page.keyboard.press('Escape');
      await expect(page).toHaveURL(/\/pricing$/);
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(signInLink).toBeFocused();

      // Signed in from the keyboard: focus lands on the heading of the page it comes back to.
      await page.keyboard.press('Enter');
      await expect(dialog.getByLabel('Email')).toBeFocused();
      await page.keyboard.type('buyer@demo.test');
      await page.keyboard.press('Tab');
      await page.keyboard.type('demo-password');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('banner').getByLabel(/^Account menu for/)).toBeVisible();
      await expect(page).toHaveURL(/\/pricing$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeFocused();
    },
  );
});

test.describe('marketplace pages', () => {
  test(
    'a page past the end goes to the last page, and pagination says where you are',
    SERVER_RENDERED,
    async ({ page }) => {
      await page.goto('/marketplace');
      const total = Number(
        /of (\d+) agents/.exec((await page.getByText(/^Showing \d+ of \d+ agents$/).textContent()) ?? '')?.[1],
      );
      const last = Math.ceil(total / 24);
      expect(last).toBeGreaterThan(1);
      const pagination = page.getByRole('navigation', { name: 'Pagination' });
      await expect(pagination.getByText(`Page 1 of ${last}`)).toBeVisible();

      await page.goto('/marketplace?page=2');
      await expect(pagination.getByText(`Page 2 of ${last}`)).toBeVisible();

      await page.goto('/marketplace?sort=price-low&page=99');
      await expect(page).toHaveURL(new RegExp(`/marketplace\\?sort=price-low&page=${last}$`));
      await expect(pagination.getByText(`Page ${last} of ${last}`)).toBeVisible();
      await expect(page.getByText(`Showing ${total - (last - 1) * 24} of ${total} agents`)).toBeVisible();
    },
  );

  test('a page past the end of no results shows the empty state with a way back', SERVER_RENDERED, async ({ page }) => {
    await page.goto('/marketplace?q=no-agent-is-called-this&page=4');
    await expect(page).toHaveURL(/\/marketplace\?q=no-agent-is-called-this$/);
    await expect(page.getByRole('heading', { name: 'No agents found' })).toBeVisible();
    await page.getByRole('link', { name: 'Clear all filters' }).click();
    await expect(page).toHaveURL(/\/marketplace$/);
    await expect(page.getByRole('navigation', { name: 'Pagination' }).getByText(/^Page 1 of \d+$/)).toBeVisible();
  });
});

test.describe('the username rule before submitting', () => {
  const HINT = 'Letters, numbers and underscores; at least 3 characters.';

  test('sign-up shows it as a hint and as the field pattern', SERVER_RENDERED, async ({ page }) => {
    await page.goto('/?auth=sign-up');
    const username = page.locator('form[action="/auth/sign-up"]').getByLabel('Username');
    await expect(username).toHaveAttribute('pattern', '[A-Za-z0-9_]+');
    await expect(username).toHaveAttribute('minlength', '3');
    await expect(username).toHaveAccessibleDescription(HINT);
  });

  test('the profile shows it too', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'buyer', '/profile');
    const username = page.getByLabel('Username');
    await expect(username).toHaveAttribute('pattern', '[A-Za-z0-9_]+');
    await expect(username).toHaveAccessibleDescription(HINT);
  });
});

// Over HTTP, as a browser without JavaScript follows links: every page a visitor reaches (the
// list above), every link on it, header and footer included. A link to another site (a forum, a
// repository, a made-up address) fails, as does an example address in the text (support@….example)
// and a link that answers anything but 200 in the end (a guarded page's redirect to the sign-in
// dialog is a 200) or names a fragment that is not there.
test('every link on the public pages is a page of this site that answers 200', SERVER_RENDERED, async ({ request }) => {
  const answers = new Map<string, Promise<{ status: number; html: string }>>();
  const fetchPage = (path: string) => {
    const known = answers.get(path);
    if (known) return known;
    const answer = request
      .get(path)
      .then(async (response) => ({ status: response.status(), html: await response.text() }));
    answers.set(path, answer);
    return answer;
  };
  const failures: string[] = [];
  let checked = 0;
  for (const url of Object.values(HEADER_PAGES).flat()) {
    const { html } = await fetchPage(url);
    // Nor an address made up for an example, written out as one to use.
    const text = html.replace(/<(script|style)\b[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]*>/g, ' ');
    for (const made of text.match(/[\w.+-]*@?[\w-]+(\.[\w-]+)*\.example\b|\bexample\.(com|org|net)\b/g) ?? []) {
      failures.push(`${url}: shows the made-up address ${made}`);
    }
    const hrefs = new Set(
      [...html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&')),
    );
    for (const href of hrefs) {
      if (!/^(\/(?!\/)|#.)/.test(href)) {
        failures.push(`${url}: ${href} is not a page of this site`);
        continue;
      }
      const [path = url, fragment] = href.startsWith('#') ? [url, href.slice(1)] : href.split('#');
      const target = await fetchPage(path);
      checked += 1;
      // A page that is itself a 404 or a 403 (a storefront for members only) links to itself (the
      // skip link, Sign In): that is the page the visitor is on, not a link that goes nowhere.
      const itself = new URL(path, 'http://x').pathname === new URL(url, 'http://x').pathname;
      if (target.status !== 200 && !itself) failures.push(`${url}: ${href} answers ${target.status}`);
      else if (fragment && !target.html.includes(` id="${decodeURIComponent(fragment)}"`))
        failures.push(`${url}: ${href} has no element #${fragment}`);
    }
  }
  expect(checked).toBeGreaterThan(50);
  expect(failures).toEqual([]);
});

test(
  'text is set in the self-hosted Inter, preloaded, with nothing fetched from another origin',
  JAVASCRIPT_ONLY,
  async ({ page, baseURL }) => {
    // with JavaScript the page fetches the most: its scripts too
    const origins = new Set<string>();
    page.on('request', (request) => {
      if (!request.url().startsWith('data:')) origins.add(new URL(request.url()).origin);
    });
    await page.goto('/marketplace');
    const preload = page.locator('link[rel="preload"][as="font"]');
    await expect(preload).toHaveAttribute('href', /inter-latin-wght-normal.*\.woff2$/);
    await expect(page.locator('body')).toHaveCSS('font-family', /^"Inter Variable"/);
    expect(
      await page.evaluate(async () => (await document.fonts.ready, document.fonts.check('16px "Inter Variable"'))),
    ).toBe(true);
    const loaded = await page.evaluate(() =>
      [...document.fonts].filter((font) => font.status === 'loaded').map((font) => font.family),
    );
    expect(loaded).toContain('Inter Variable');
    expect([...origins]).toEqual([new URL(baseURL!).origin]);
  },
);

test(
  'what Help, Docs and Privacy promise is there: each named control exists and works',
  SERVER_RENDERED,
  async ({ page }) => {
    const promises: [page: string, promise: RegExp][] = [
      ['/privacy', /export your data or delete your account at any time from Profile & Settings → Data & Export/],
      ['/docs', /two-factor authentication from Profile & Settings → Security/],
      ['/docs', /Dashboard → Upload Agent/],
      ['/help', /Use Contact Seller in Purchase History first/],
      ['/help', /Dashboard → My Collection\. Every completed purchase is there with a Download button/],
    ];
    for (const [url, promise] of promises) {
      await page.goto(url);
      await expect(page.getByRole('main')).toContainText(promise);
    }
    await signIn(page, 'buyer', '/profile?tab=data');
    await expect(page.getByRole('link', { name: 'Export Data' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete Account' })).toBeEnabled();
    await page.goto('/profile?tab=security');
    await expect(page.getByRole('button', { name: 'Enable Two-Factor' })).toBeEnabled();
    await page.goto('/dashboard/collection');
    await expect(page.getByRole('link', { name: /^Download / }).first()).toBeVisible();
    await page.goto('/dashboard/purchases');
    await expect(page.getByRole('link', { name: /^Contact Seller/ }).first()).toBeVisible();
  },
);

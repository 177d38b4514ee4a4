/**
 * The first hour: what a newcomer trips on. Each block is one such trip-up.
 */
import { readFileSync } from 'node:fs';
import { expect, isJavaScriptProject, serverRenderedOnly, test } from './fixtures';
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
  'auth/reset-password': 'needs the recovery session of an email link',
  setup: 'a one-time link from the server log; 404 otherwise',
  'profile/two-factor': 'signed in only: it redirects to the sign-in dialog over the home page',
  'auth/two-factor': 'only for a session that owes a second-factor code; others are sent on',
  '__perf/fixture': 'a benchmark fixture, 404 unless enabled',
};

test.describe('the header opens the sign-in dialog on every page', () => {
  test('app/routes.ts has no page this list forgets', () => {
    const source = readFileSync('app/routes.ts', 'utf8');
    const paths = [...source.matchAll(/route\('(?<path>[^']+)',\s*'routes\/(?<file>[^']+)'\)/g)]
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
  test('every page: the header’s Sign In leads to the page with the Welcome back dialog open', async ({ request }) => {
    serverRenderedOnly();
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
  });

  for (const url of ['/', '/marketplace?page=2', AGENT, '/no-such-page']) {
    test(`Sign In opens 'Welcome back' in place on ${url}`, async ({ page }) => {
      test.skip(!isJavaScriptProject(), 'the no-JavaScript run follows the link on every page above');
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
      .filter((line) => !/^npm warn Unknown (user|env) config/.test(line)) // this machine's npm settings
      .filter(
        (line) => !(process.versions.node.startsWith('20.') && line.includes('Node.js 20 and below are deprecated')),
      );
    expect(warnings).toEqual([]);
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

test.describe('the sign-in dialog is modal', () => {
  test('Tab stays inside, Escape closes it and focus returns to Sign In', async ({ page }) => {
    test.skip(!isJavaScriptProject(), 'keyboard handling of the modal dialog needs JavaScript');
    await page.goto('/pricing');
    const signInLink = page.getByRole('banner').getByRole('link', { name: 'Sign In' });
    await signInLink.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Welcome back' });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/pricing\?auth=sign-in$/);
    // Focus is inside the dialog, or (after its last control) briefly in the browser's own UI,
    // which leaves the document's body active: never on the page behind.
    const focusBehind = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        return active !== null && active !== document.body && !active.closest('dialog[open]') ? active.outerHTML : null;
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
  });
});

test.describe('marketplace pages', () => {
  test('a page past the end goes to the last page, and pagination says where you are', async ({ page }) => {
    serverRenderedOnly();
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
  });

  test('a page past the end of no results shows the empty state with a way back', async ({ page }) => {
    serverRenderedOnly();
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

  test('sign-up shows it as a hint and as the field pattern', async ({ page }) => {
    serverRenderedOnly();
    await page.goto('/?auth=sign-up');
    const username = page.locator('form[action="/auth/sign-up"]').getByLabel('Username');
    await expect(username).toHaveAttribute('pattern', '[A-Za-z0-9_]+');
    await expect(username).toHaveAttribute('minlength', '3');
    await expect(username).toHaveAccessibleDescription(HINT);
  });

  test('the profile shows it too', async ({ page }) => {
    serverRenderedOnly();
    await signIn(page, 'buyer', '/profile');
    const username = page.getByLabel('Username');
    await expect(username).toHaveAttribute('pattern', '[A-Za-z0-9_]+');
    await expect(username).toHaveAccessibleDescription(HINT);
  });
});

test('the footer links only to the project’s own pages', async ({ page }) => {
  serverRenderedOnly();
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
  const hrefs = await footer.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  expect(hrefs.length).toBeGreaterThan(5);
  for (const href of hrefs) expect(href, 'a path on this site').toMatch(/^\/(?!\/)/);
});

test('text is set in the self-hosted Inter, preloaded, with nothing fetched from another origin', async ({
  page,
  baseURL,
}) => {
  test.skip(!isJavaScriptProject(), 'with JavaScript the page fetches the most: its scripts too');
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
});

test('what Help, Docs and Privacy promise is there: each named control exists and works', async ({ page }) => {
  serverRenderedOnly();
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
});

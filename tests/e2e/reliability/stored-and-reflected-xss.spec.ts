/**
 * Stored and reflected XSS. On a server of its own, the demo accounts write script
 * payloads into every field a user fills in, through the same form posts the pages send:
 * profiles (names, location, phone, website, bio), a listing (name, description, features,
 * release notes of two versions), a review and the seller's reply, a seller application (display
 * name, pitch), a refund reason and a moderation reason. Then every page that shows them is
 * opened as the buyer, the seller, the administrator and a visitor, with JavaScript on and off
 * (the two projects), starting from the pages that show the data and following each same-origin
 * link once per route; and every page once more with each query parameter the app reads (found in
 * its source) set to the payloads, plus a payload as the path. Counted per page:
 * - a dialog (`alert`) opened;
 * - a Content-Security-Policy violation (Chromium logs each one on the console; an init script
 *   logs every `securitypolicyviolation` event there too);
 * - markup of a payload parsed into the DOM: an `img[src=x]`, an `on…` attribute, a script
 *   whose text is the payload's, a `javascript:` link or form target, an iframe, object or embed.
 * The count is a row of `npm run test:reliability`; its bar is 0.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIResponse, Browser, Page } from '@playwright/test';
import { parameterNames } from '../../support/app-source';
import { recordTally } from '../../support/security-tally';
import { expect, isJavaScriptProject, test } from '../fixtures';
import { DEMO_ACCOUNTS, signIn, signUpNewUser, uniqueName, type DemoRole } from '../support/accounts';
import { manifest } from '../support/listing-files';
import { killServers, serviceRoleKey, startServer, type ServerProcess } from '../support/server-process';

/** One payload per technique; each alerts a number of its own, so a dialog names its payload. */
const PAYLOADS = {
  script: '<script>alert(1)</script>',
  img: '"><img src=x onerror=alert(2)>',
  svg: '<svg onload=alert(3)>',
  template: "{{constructor.constructor('alert(4)')()}}",
  breaker: '</script><script>alert(5)</script>',
  scheme: 'javascript:alert(6)',
  attribute: "' onmouseover='alert(7)' x='",
};
/** Every payload in one text, for the long fields. */
const ALL = Object.values(PAYLOADS).join(' ');
/**
 * One text that breaks out of every context a URL parameter could land in: a link's scheme, a
 * script, an attribute in either quote, markup, a client template.
 */
const POLYGLOT = `javascript:/*</script><svg onload=alert(9)>*/'"><img src=x onerror=alert(10)>{{constructor.constructor('alert(11)')()}}`;
/** A website the profile form accepts (an http URL) that would break out of an attribute. */
const HOSTILE_WEBSITE = 'https://x.example/"><svg/onload=alert(8)>';

const agentId = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** demo_seller's agent the administrator unpublishes with a hostile reason (supabase/seed.sql). */
const UNPUBLISHED = agentId(3);

/** Links not to follow: they end the session, download files or leave the pages. */
const NOT_FOLLOWED = /\/auth\/sign-out|\/download|\/export|\/storage\/|\/artwork\/|\/__|\.(csv|json|zip|png|svg|webp)$/;
const MAX_PAGES_PER_VIEWER = 70;

let server: ServerProcess;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'xss-'));
  server = await startServer(dataDir);
});

test.afterAll(() => {
  killServers();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function newViewer(browser: Browser, role: DemoRole | null): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.origin, javaScriptEnabled: isJavaScriptProject() });
  const page = await context.newPage();
  if (role) await signIn(page, role, '/');
  return page;
}

/** A form post the page's own form would send; it must be accepted (2xx or a redirect). */
/** The price the order summary shows this viewer: its form (Confirm purchase) carries it. */
async function shownPrice(page: Page, url: string): Promise<string> {
  const html = await (await page.request.get(url)).text();
  return /name="price" value="([^"]+)"/.exec(html)?.[1] ?? '';
}

async function post(page: Page, url: string, form: Record<string, string>, what: string) {
  const response = await page.request.post(url, { form, maxRedirects: 0 });
  await expectAccepted(response, what);
}

async function expectAccepted(response: APIResponse, what: string) {
  const alert = /role="alert"[^>]*>([^<]*)/.exec(await response.text())?.[1];
  expect([200, 302, 303], `${what}: ${response.status()} ${alert ?? ''}`).toContain(response.status());
}

async function restRows<T>(table: string, query: string): Promise<T[]> {
  const key = await serviceRoleKey(dataDir);
  const response = await fetch(`${server.origin}/rest/v1/${table}?${query}`, {
    headers: { apikey: key, authorization: `Bearer ${key}` },
  });
  expect(response.status, `${table}?${query}`).toBe(200);
  return (await response.json()) as T[];
}

function listing(name: string, version: string) {
  return {
    intent: 'publish',
    name,
    description: ALL,
    category: 'Sales',
    price: '5',
    features: Object.values(PAYLOADS).join('\n'),
    version,
    release_notes: ALL,
    package: { name: 'xss.json', mimeType: 'application/json', buffer: manifest('xss', version) },
    draft_id: randomUUID(), // the id the upload form gives a new agent (ignored by the edit form)
  };
}

/** Writes a payload into every user-supplied field; returns what the pages need to be found. */
async function writePayloads(viewers: Record<DemoRole, Page>, applicant: Page) {
  const { buyer, seller, admin } = viewers;
  const profile = (username: string) => ({
    intent: 'profile',
    username,
    first_name: PAYLOADS.img,
    last_name: PAYLOADS.svg,
    location: `${PAYLOADS.breaker} ${PAYLOADS.script}`,
    phone: PAYLOADS.svg,
    website: HOSTILE_WEBSITE,
    bio: ALL,
  });
  for (const [page, role] of [
    [seller, 'seller'],
    [buyer, 'buyer'],
  ] as const) {
    const username = DEMO_ACCOUNTS[role].username;
    await post(page, '/profile', profile(username), `${role}'s profile`);
    await post(
      page,
      '/profile',
      { intent: 'privacy', profile_visibility: 'public', show_email: 'on', show_phone: 'on' },
      `${role}'s privacy`,
    );
    // A website that is a script is refused, not stored.
    const refused = await page.request.post('/profile', {
      form: { ...profile(username), website: PAYLOADS.scheme },
      maxRedirects: 0,
    });
    expect(refused.status(), 'a javascript: website').toBe(400);
  }

  // A listing with two versions: every text field carries payloads.
  const name = `XSS ${PAYLOADS.img} ${PAYLOADS.breaker}`;
  await expectAccepted(
    await seller.request.post('/dashboard/upload', { multipart: listing(name, '1.0.0'), maxRedirects: 0 }),
    'upload',
  );
  const sellerRow = await restRows<{ id: string }>('users', `select=id&username=eq.${DEMO_ACCOUNTS.seller.username}`);
  const agents = await restRows<{ id: string }>(
    'agents',
    `select=id&seller_id=eq.${sellerRow[0]!.id}&name=eq.${encodeURIComponent(name)}`,
  );
  expect(agents).toHaveLength(1);
  const agent = agents[0]!.id;
  await expectAccepted(
    await seller.request.post(`/dashboard/agents/${agent}/edit`, {
      multipart: listing(name, '1.1.0'),
      maxRedirects: 0,
    }),
    'version 1.1.0',
  );

  // The buyer buys it and another of demo_seller's agents, and reviews the first.
  await post(
    buyer,
    `/agent/${agent}/checkout`,
    { intent: 'buy', idempotencyKey: randomUUID(), price: await shownPrice(buyer, `/agent/${agent}/checkout`) },
    'buy',
  );
  await post(buyer, `/agent/${agent}/review`, { rating: '4', review: ALL }, 'review');
  const review = await restRows<{ id: string }>('reviews', `select=id&agent_id=eq.${agent}`);
  expect(review).toHaveLength(1);
  await post(seller, '/dashboard/reviews', { intent: 'save', reviewId: review[0]!.id, reply: ALL }, 'reply');

  // A second purchase, refunded by the seller with a hostile reason.
  const buyerRow = await restRows<{ id: string }>('users', `select=id&username=eq.${DEMO_ACCOUNTS.buyer.username}`);
  const owned = new Set(
    (await restRows<{ agent_id: string }>('purchases', `select=agent_id&buyer_id=eq.${buyerRow[0]!.id}`)).map(
      (row) => row.agent_id,
    ),
  );
  const forSale = await restRows<{ id: string }>(
    'agents',
    `select=id&seller_id=eq.${sellerRow[0]!.id}&status=eq.published&order=id`,
  );
  const second = forSale.find((row) => !owned.has(row.id) && row.id !== UNPUBLISHED && row.id !== agent)!.id;
  await post(
    buyer,
    `/agent/${second}/checkout`,
    { intent: 'buy', idempotencyKey: randomUUID(), price: await shownPrice(buyer, `/agent/${second}/checkout`) },
    'second buy',
  );
  const purchase = await restRows<{ id: string }>(
    'purchases',
    `select=id&buyer_id=eq.${buyerRow[0]!.id}&agent_id=eq.${second}`,
  );
  await post(seller, '/dashboard/earnings', { purchaseId: purchase[0]!.id, reason: ALL }, 'refund');

  // The administrator unpublishes one of the seller's agents with a hostile reason.
  await post(admin, '/dashboard/moderation', { intent: 'unpublish', agentId: UNPUBLISHED, reason: ALL }, 'unpublish');

  // A new account applies to sell with a hostile display name and pitch.
  await post(
    applicant,
    '/become-seller',
    { displayName: PAYLOADS.img, pitch: ALL, responseTimeHours: '24', acceptTerms: 'on' },
    'become a seller',
  );

  // Stored as typed (the pages must escape it, not the database refuse it).
  const stored = await restRows<{ bio: string }>('users', `select=bio&username=eq.${DEMO_ACCOUNTS.seller.username}`);
  expect(stored[0]!.bio).toBe(ALL);
  return { agent, second };
}

/** What a page did with the payloads: dialogs and CSP reports since the last call, markup in the DOM. */
function watch(page: Page) {
  const events: string[] = [];
  page.on('dialog', (dialog) => {
    events.push(`dialog ${JSON.stringify(dialog.message())}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('console', (message) => {
    if (/Content Security Policy|securitypolicyviolation/i.test(message.text()))
      events.push(`CSP: ${message.text().slice(0, 160)}`);
  });
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`securitypolicyviolation ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return async function findings(): Promise<string[]> {
    const markup = await page.evaluate(() => {
      const found: string[] = [];
      for (const element of Array.from(document.querySelectorAll('*'))) {
        const tag = element.tagName.toLowerCase();
        if (['iframe', 'object', 'embed'].includes(tag)) found.push(`<${tag}>`);
        if (tag === 'img' && element.getAttribute('src') === 'x') found.push('img[src=x]');
        if (tag === 'script' && /^\s*alert\(/.test(element.textContent ?? '')) found.push('a payload <script>');
        for (const attribute of Array.from(element.attributes)) {
          if (/^on/i.test(attribute.name)) found.push(`<${tag} ${attribute.name}>`);
          if (
            ['href', 'src', 'action', 'formaction', 'xlink:href'].includes(attribute.name) &&
            /^\s*javascript:/i.test(attribute.value)
          )
            found.push(`<${tag} ${attribute.name}="${attribute.value.slice(0, 40)}">`);
        }
      }
      return found;
    });
    // Dialogs and reports may come a moment after the load.
    await page.waitForTimeout(isJavaScriptProject() ? 150 : 0);
    return [...events.splice(0), ...markup];
  };
}

/** A page's route, for following each route's links once: ids and numbers replaced. */
function routeKey(url: URL): string {
  return url.pathname.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id');
}

/**
 * Opens `seeds`, then the same-origin links found on the pages opened, each route once, up to a
 * cap; returns the pages opened and what was found on them.
 */
async function visitAll(page: Page, seeds: string[], failures: string[]): Promise<string[]> {
  const findings = watch(page);
  const queue = [...seeds];
  const seen = new Set<string>();
  const routes = new Set(seeds.map((seed) => routeKey(new URL(seed, server.origin))));
  const opened: string[] = [];
  while (queue.length && opened.length < MAX_PAGES_PER_VIEWER) {
    const target = queue.shift()!;
    if (seen.has(target)) continue;
    seen.add(target);
    const response = await page.goto(target);
    opened.push(target);
    if ((response?.status() ?? 0) >= 500) failures.push(`${target} → ${response?.status()}`);
    for (const finding of await findings()) failures.push(`${target}: ${finding}`);
    const links = await page
      .locator('a[href]')
      .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
    for (const link of links) {
      const url = new URL(link, server.origin);
      if (url.origin !== server.origin || NOT_FOLLOWED.test(url.pathname)) continue;
      const key = routeKey(url);
      if (routes.has(key)) continue;
      routes.add(key);
      queue.push(url.pathname + url.search);
    }
  }
  return opened;
}

test('no payload in a user-supplied field or URL parameter runs or becomes markup, with JavaScript on or off', async ({
  browser,
}) => {
  test.setTimeout(600_000);
  const viewers = {
    buyer: await newViewer(browser, 'buyer'),
    seller: await newViewer(browser, 'seller'),
    admin: await newViewer(browser, 'admin'),
  };
  const applicant = await newViewer(browser, null);
  const applicantName = await signUpNewUser(applicant, uniqueName('xss', test.info().project.name));
  const { agent, second } = await writePayloads(viewers, applicant);

  const shared = [
    '/',
    '/marketplace',
    `/marketplace?q=XSS`,
    `/agent/${agent}`,
    `/agent/${UNPUBLISHED}`,
    `/sellers/${DEMO_ACCOUNTS.seller.username}`,
    `/sellers/${DEMO_ACCOUNTS.buyer.username}`,
    `/sellers/${applicantName}`,
    '/categories',
    '/profile',
    '/dashboard',
  ];
  const seeds: Record<DemoRole, string[]> = {
    buyer: [
      ...shared,
      '/dashboard/collection',
      '/dashboard/purchases',
      '/dashboard/billing',
      `/agent/${agent}/review`,
      `/agent/${second}`,
    ],
    seller: [
      ...shared,
      '/dashboard/agents',
      `/dashboard/agents/${agent}/edit`,
      `/dashboard/agents/${UNPUBLISHED}/edit`,
      '/dashboard/reviews',
      '/dashboard/earnings',
      '/dashboard/disputes',
      '/dashboard/analytics',
    ],
    admin: [...shared, '/dashboard/moderation', '/dashboard/users', `/dashboard/users?q=${applicantName}`],
  };

  const failures: string[] = [];
  let cases = 0;
  const openedByRole: Record<string, string[]> = {};
  for (const role of ['buyer', 'seller', 'admin'] as const) {
    openedByRole[role] = await visitAll(viewers[role], seeds[role], failures);
    cases += openedByRole[role].length;
  }
  const visitor = await newViewer(browser, null);
  cases += (await visitAll(visitor, shared.slice(0, 9), failures)).length;

  // Reflected: every page the administrator opened, with every parameter the app reads set to a
  // polyglot of the payloads (in two halves: a URL with all of them is over Node's 16 KB header
  // limit), and a payload as the path.
  const names = parameterNames();
  expect(names.length).toBeGreaterThan(10);
  const halves = [names.slice(0, names.length / 2), names.slice(names.length / 2)];
  const admin = viewers.admin;
  const findings = watch(admin);
  const reflected = [...new Set(openedByRole.admin!.map((target) => new URL(target, server.origin).pathname))].flatMap(
    (pathname) => halves.map((half) => `${pathname}?${new URLSearchParams(half.map((name) => [name, POLYGLOT]))}`),
  );
  reflected.push(`/${encodeURIComponent(ALL)}`, `/agent/${encodeURIComponent(PAYLOADS.img)}`);
  for (const target of reflected) {
    cases++;
    const response = await admin.goto(target);
    if ((response?.status() ?? 0) >= 500) failures.push(`${target} → ${response?.status()}`);
    for (const finding of await findings()) failures.push(`${target.slice(0, 80)}: ${finding}`);
  }

  // The payloads are on the pages as text.
  await viewers.buyer.goto(`/agent/${agent}`);
  await expect(viewers.buyer.getByRole('heading', { level: 1 })).toHaveText(`XSS ${PAYLOADS.img} ${PAYLOADS.breaker}`);
  await expect(viewers.buyer.getByText(ALL).first()).toBeVisible();

  for (const page of [...Object.values(viewers), applicant, visitor]) await page.context().close();
  recordTally({
    check: `XSS stored and reflected (${isJavaScriptProject() ? 'JS' : 'no JS'})`,
    counts: 'dialogs, CSP violations and payload markup in the DOM on pages showing user input',
    cases,
    failures,
  });
  expect(failures).toEqual([]);
});

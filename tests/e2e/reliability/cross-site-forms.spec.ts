/**
 * Cross-site request forgery from a real second origin, in a real browser. The app runs
 * on http://127.0.0.1:<port>; an attacker's page is served by a small HTTP server of this test
 * from two other origins:
 * - http://localhost:<port2>: another site (SameSite=Lax keeps the session cookies off a cross-site
 *   POST, and the app's Origin check refuses it);
 * - http://127.0.0.1:<port2>: the same site on another port (another app on the same machine): the
 *   browser sends the session cookies, so only the app's Origin check stands in the way.
 * While the demo buyer and the demo admin are signed in, each attack posts one of the app's
 * state-changing actions (sign-out, profile, account deletion, buy, review, newsletter, become a
 * seller, ban, unpublish) with a body that would succeed from the app's own pages: with
 * JavaScript as an auto-submitting form and as `fetch(…, { credentials: 'include' })`; without
 * JavaScript as a form the victim submits (a "Claim your prize" button). Every answer must be a
 * 403, every victim still signed in, and no table changed (read back through the Data API with
 * the service role). The count of what got through is a row of `npm run test:reliability`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { recordTally } from '../../support/security-tally';
import { expect, isJavaScriptProject, test } from '../fixtures';
import { DEMO_ACCOUNTS, signIn, type DemoRole } from '../support/accounts';
import { killServers, serviceRoleKey, startServer, type ServerProcess } from '../support/server-process';

const agentId = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const NOT_OWNED = agentId(2); // published, not bought by demo_buyer (supabase/seed.sql)
const OWNED_UNRATED = agentId(40); // demo_buyer: completed, not rated

/** The tables an action of the app writes (analytics written on a GET are left out). */
const TABLES = [
  'users',
  'user_settings',
  'agents',
  'purchases',
  'reviews',
  'review_replies',
  'newsletter_subscribers',
  'subscriptions',
  'payment_methods',
  'audit_log',
];

interface Attack {
  name: string;
  victim: DemoRole;
  path: string;
  fields: Record<string, string>;
}

function attacks(ids: { seller: string }): Attack[] {
  const buyer = DEMO_ACCOUNTS.buyer.username;
  return [
    { name: 'sign-out', victim: 'buyer', path: '/auth/sign-out', fields: {} },
    {
      name: 'profile update',
      victim: 'buyer',
      path: '/profile',
      fields: { intent: 'profile', username: buyer, bio: 'Written by another site', website: 'https://evil.example' },
    },
    { name: 'sign out other sessions', victim: 'buyer', path: '/profile', fields: { intent: 'sessions' } },
    {
      name: 'buy',
      victim: 'buyer',
      path: `/agent/${NOT_OWNED}/checkout`,
      fields: { intent: 'buy', idempotencyKey: randomUUID(), price: '99.00' }, // SEO Sentinel's list price
    },
    {
      name: 'review',
      victim: 'buyer',
      path: `/agent/${OWNED_UNRATED}/review`,
      fields: { rating: '1', review: 'Written by another site' },
    },
    {
      name: 'newsletter',
      victim: 'buyer',
      path: '/resources/newsletter',
      fields: { email: 'cross-site@example.com', redirectTo: '/' },
    },
    {
      name: 'become a seller',
      victim: 'buyer',
      path: '/become-seller',
      fields: { displayName: 'Cross Site', pitch: 'Another site', responseTimeHours: '24', acceptTerms: 'on' },
    },
    {
      name: 'ban (admin)',
      victim: 'admin',
      path: '/dashboard/users',
      fields: { intent: 'ban', userId: ids.seller, reason: 'Sent by another site' },
    },
    {
      name: 'unpublish (admin)',
      victim: 'admin',
      path: '/dashboard/moderation',
      fields: { intent: 'unpublish', agentId: NOT_OWNED, reason: 'Sent by another site' },
    },
    {
      name: 'delete account',
      victim: 'buyer',
      path: '/profile',
      fields: { intent: 'delete', confirmUsername: buyer },
    },
  ];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The attacker's page: a form to `action` (auto-submitted with JavaScript) or a fetch with credentials. */
function attackPage(action: string, fields: Record<string, string>, mode: 'form' | 'fetch'): string {
  if (mode === 'fetch') {
    return `<!doctype html><title>Prize</title><script>
fetch(${JSON.stringify(action)}, { method: 'POST', mode: 'no-cors', credentials: 'include',
  body: new URLSearchParams(${JSON.stringify(fields)}) }).finally(() => document.title = 'sent');
</script>`;
  }
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<!doctype html><title>Prize</title><form id="f" method="post" action="${escapeHtml(action)}">${inputs}
<button>Claim your prize</button></form><script>document.getElementById('f').submit()</script>`;
}

let server: ServerProcess;
let dataDir = '';
let attacker: http.Server;
/** The page each attack path serves, set before each attack. */
let nextPage = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cross-site-'));
  server = await startServer(dataDir);
  attacker = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(nextPage);
  });
  // Both stacks: `localhost` may resolve to ::1 or 127.0.0.1.
  await new Promise<void>((resolve) => attacker.listen(0, resolve));
});

test.afterAll(async () => {
  killServers();
  await new Promise((resolve) => attacker?.close(resolve));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Every row of the written tables, read with the service role: what an attack must not change. */
async function snapshot(key: string): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  for (const table of TABLES) {
    const response = await fetch(`${server.origin}/rest/v1/${table}?select=*`, {
      headers: { apikey: key, authorization: `Bearer ${key}` },
    });
    expect(response.status, table).toBe(200);
    const list = ((await response.json()) as unknown[]).map((row) => JSON.stringify(row)).sort();
    rows.set(table, list.join('\n'));
  }
  return rows;
}

const changed = (before: Map<string, string>, after: Map<string, string>) =>
  [...before].filter(([table, rows]) => after.get(table) !== rows).map(([table]) => table);

/** Whether the victim's session still opens their profile. */
async function signedIn(page: Page): Promise<boolean> {
  const response = await page.request.get('/profile', { maxRedirects: 0 });
  return response.status() === 200;
}

test('no cross-site form or fetch changes anything while the victim is signed in', async ({ browser }) => {
  test.setTimeout(300_000);
  const javaScript = isJavaScriptProject();
  const port = (attacker.address() as AddressInfo).port;
  const attackerOrigins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  const key = await serviceRoleKey(dataDir);
  const seller = await fetch(`${server.origin}/rest/v1/users?select=id&username=eq.${DEMO_ACCOUNTS.seller.username}`, {
    headers: { apikey: key, authorization: `Bearer ${key}` },
  });
  const ids = { seller: ((await seller.json()) as { id: string }[])[0]!.id };

  const contexts: BrowserContext[] = [];
  const victims = {} as Record<DemoRole, Page>;
  for (const role of ['buyer', 'admin'] as const) {
    const context = await browser.newContext({ baseURL: server.origin, javaScriptEnabled: javaScript });
    contexts.push(context);
    victims[role] = await context.newPage();
    await signIn(victims[role], role, '/profile');
  }

  const failures: string[] = [];
  let cases = 0;
  let before = await snapshot(key);
  for (const attack of attacks(ids)) {
    const page = victims[attack.victim];
    const action = `${server.origin}${attack.path}`;
    for (const origin of attackerOrigins) {
      for (const mode of javaScript ? (['form', 'fetch'] as const) : (['form'] as const)) {
        cases++;
        const label = `${attack.name} from ${origin} (${mode}${javaScript ? '' : ', clicked without JavaScript'})`;
        nextPage = attackPage(action, attack.fields, mode);
        const answer = page.waitForResponse(
          (response) => response.url() === action && response.request().method() === 'POST',
        );
        await page.goto(`${origin}/prize`);
        if (!javaScript) await page.getByRole('button', { name: 'Claim your prize' }).click();
        const response = await answer;
        if (response.status() !== 403) failures.push(`${label} → ${response.status()}`);
        // The request was refused or not: its effects are what counts.
        const after = await snapshot(key);
        for (const table of changed(before, after)) failures.push(`${label} changed ${table}`);
        before = after;
        if (!(await signedIn(page))) {
          failures.push(`${label} ended the ${attack.victim}'s session`);
          await signIn(page, attack.victim, '/profile');
          before = await snapshot(key);
        }
      }
    }
  }

  // The victims' sessions and data as the app shows them: still there, unchanged.
  const buyer = victims.buyer;
  await buyer.goto('/profile');
  await expect(buyer.getByRole('banner').getByLabel(`Account menu for ${DEMO_ACCOUNTS.buyer.username}`)).toBeVisible();
  await expect(buyer.getByLabel('Bio')).not.toHaveValue('Written by another site');
  for (const context of contexts) await context.close();

  recordTally({
    check: `CSRF from a second origin (${javaScript ? 'JS' : 'no JS'})`,
    counts: 'cross-site forms and fetches in a browser not refused with 403, or that changed data or ended a session',
    cases,
    failures,
  });
  expect(failures).toEqual([]);
  expect(cases).toBe(attacks(ids).length * attackerOrigins.length * (javaScript ? 2 : 1));
});

/**
 * The app's HTTP surface under attack, every route taken from the route manifest (never a hand
 * list), through the real HTTP layer and request handler in this process (tests/support/app-in-process.ts):
 * - CSRF: every route with an action refuses a cross-site POST (another loopback origin, or
 *   `Sec-Fetch-Site: cross-site`) with 403 and changes nothing;
 * - open redirects: every return-path parameter the app reads (found in its source) with the
 *   reference's payloads, on every route, signed in and out: every Location and every link stays
 *   on this origin;
 * - generated hostile query strings (fast-check) on every page and resource route, for a signed-out
 *   and a signed-in visitor: no 5xx, no data changed, every HTML answer with its security headers.
 * Each records its count for `npm run test:reliability`'s table (tests/support/security-tally.ts).
 * SECURITY_SWEEP_RUNS sets the generated sets (1,000 in the reliability suite, 100 in `npm test`).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentArtworkPath } from '../../app/lib/agent-artwork';
import { parameterNames } from '../support/app-source';
import { cookieHeader, signInThroughApp, startAppInProcess, type AppInProcess } from '../support/app-in-process';
import { recordTally } from '../support/security-tally';

const RUNS = Number(process.env.SECURITY_SWEEP_RUNS ?? 100);
/** The reliability suite tries every redirect payload; `npm test` the first eight (the reference's core). */
const FULL = process.env.SECURITY_FULL === 'true';
const SEED = Number(process.env.SECURITY_SWEEP_SEED ?? 20261117);

let app: AppInProcess;
/** Cookies of the signed-in visitor of the sweep (the demo admin: every page opens). */
let adminCookie: string;
/** Cookies of the CSRF victim (the demo buyer). */
let buyerCookie: string;
/** A value for each dynamic segment of the manifest's paths. */
let segments: Record<string, string>;

beforeAll(async () => {
  app = await startAppInProcess();
  adminCookie = await signInThroughApp(app.origin, 'admin@demo.test');
  buyerCookie = await signInThroughApp(app.origin, 'buyer@demo.test');
  const { rows } = await app.backend.db.query<{ id: string; name: string; category: string; username: string }>(
    `select a.id, a.name, a.category, u.username from public.agents a join public.users u on u.id = a.seller_id
     where a.status = 'published' order by a.created_at limit 1`,
  );
  const agent = rows[0]!;
  const [, , category, seed, file] = agentArtworkPath(agent).split('/');
  // One of the demo buyer's purchases: its invoice (the buyer's own) is a real page.
  const invoice = await app.backend.db.query<{ id: string }>(
    `select p.id from public.purchases p join public.users u on u.id = p.buyer_id
     where u.username = 'demo_buyer' order by p.created_at limit 1`,
  );
  // A conversation of the demo buyer with the agent's seller: a real conversation page.
  const conversation = await app.backend.db.query<{ id: string }>(
    `insert into public.conversations (agent_id, buyer_id, seller_id)
       select a.id, u.id, a.seller_id from public.agents a, public.users u
       where a.id = $1 and u.email = 'buyer@demo.test' returning id`,
    [agent.id],
  );
  // A webhook endpoint of the admin's: its deliveries page is a real page.
  const endpoint = await app.backend.db.query<{ id: string }>(
    `insert into public.webhook_endpoints (seller_id, url, events, secret)
       select id, 'https://hooks.example.com/sweep', '{sale.completed}', 'whsec_' || repeat('A', 40)
       from public.users where email = 'admin@demo.test' returning id`,
  );
  segments = {
    conversationId: conversation.rows[0]!.id,
    endpointId: endpoint.rows[0]!.id,
    agentId: agent.id,
    username: agent.username,
    category: category!,
    seed: seed!,
    file: file!,
    invoiceId: invoice.rows[0]!.id,
    document: 'terms',
  };
}, 120_000);
afterAll(() => app?.close());

/** A manifest path with its segments filled (`hostile` replaces each with that text). */
function concrete(routePath: string, hostile?: string): string {
  return routePath.replace(/:([A-Za-z]+)\??/g, (_, name: string) => {
    if (hostile !== undefined) return encode(hostile);
    if (!(name in segments)) throw new Error(`no test value for :${name} in ${routePath}: add one to segments`);
    return segments[name]!;
  });
}

/** encodeURIComponent that survives lone surrogates (raw broken UTF-8 comes from `rawGarbage`). */
const encode = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDFFF]/gu, '\uFFFD'));

/** Leaf routes a visitor can GET: pages and resource routes with a loader (not the catch-all). */
const gettable = () => app.routes.filter((route) => !route.parent && (route.page || route.loader));

/**
 * A fingerprint per table of the app's data (public, storage, auth users and sessions), to show
 * that refused or read-only requests changed nothing. Analytics written by design on a GET
 * (page views, presence, download counts) are left out by `skip`.
 */
async function fingerprint(skip: string[] = []): Promise<Map<string, string>> {
  const { rows: tables } = await app.backend.db.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and (n.nspname in ('public', 'storage')
       or (n.nspname = 'auth' and c.relname in ('users', 'sessions', 'refresh_tokens', 'identities')))`,
  );
  const prints = new Map<string, string>();
  for (const { name } of tables) {
    if (skip.includes(name)) continue;
    const { rows } = await app.backend.db.query<{ md5: string }>(
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as md5 from ${name} t`,
    );
    prints.set(name, rows[0]!.md5);
  }
  return prints;
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before].filter(([name, print]) => after.get(name) !== print).map(([name]) => name);
}

/** Whether a Location or link target stays on the app's origin (relative paths do). */
function sameOrigin(target: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(target)) return false;
  try {
    return new URL(target, `${app.origin}/some/page`).origin === app.origin;
  } catch {
    return false;
  }
}

/** Links and form targets of an HTML page that leave the origin and carry `marker`. */
function offSiteLinks(html: string, marker: RegExp): string[] {
  const targets = [...html.matchAll(/\s(?:href|action|formaction)="([^"]*)"/g)].map((match) =>
    match[1]!
      .replace(/&amp;/g, '&')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"'),
  );
  return targets.filter((target) => marker.test(target) && !sameOrigin(target));
}

/** The security headers every HTML answer carries; returns what is missing. */
function missingHeaders(response: Response, html: string): string[] {
  const missing: string[] = [];
  const csp = response.headers.get('content-security-policy') ?? '';
  const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(csp)?.[1];
  if (!nonce) missing.push('CSP script-src nonce');
  if (!/frame-ancestors 'none'/.test(csp)) missing.push('frame-ancestors');
  if (!/object-src 'none'/.test(csp)) missing.push('object-src');
  if (!/base-uri 'self'/.test(csp)) missing.push('base-uri');
  if (response.headers.get('x-content-type-options') !== 'nosniff') missing.push('nosniff');
  if (!response.headers.get('referrer-policy')) missing.push('Referrer-Policy');
  if (response.headers.get('x-frame-options') !== 'DENY') missing.push('X-Frame-Options');
  if (response.headers.has('x-powered-by')) missing.push('X-Powered-By present');
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  if (nonce && scripts.some((tag) => !tag.includes(`nonce="${nonce}"`))) missing.push('script without the nonce');
  return missing;
}

/** The return-path parameters (redirectTo, next, returnTo, …) the app reads anywhere. */
function redirectParameters(): string[] {
  return parameterNames().filter((name) =>
    /^(redirect\w*|return\w*|next|continue\w*|callback\w*|goto|dest\w*)$/i.test(name),
  );
}

/** The reference's open-redirect payloads (docs: ../shared/reference/performance-and-security.md, S7). */
const REDIRECT_PAYLOADS = [
  '//evil.example',
  '/\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '%2F%2Fevil.example',
  'https://evil.example',
  'javascript:alert(1)',
  '\\\\evil.example',
  '\t//evil.example',
  ' //evil.example',
  '///evil.example',
  '/\\/evil.example',
  '/%2F/evil.example',
  '/%5Cevil.example',
  '/%09/evil.example',
  'HTTPS://evil.example/path',
  'http:evil.example',
  'http:/evil.example',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '//evil.example@127.0.0.1',
  'https:\\\\evil.example',
];
/**
 * Paths that only become `//evil.example` once their dot segments are resolved: a check of the
 * input passes them, a check of the resolved path does not. Always tried, in `npm test` too.
 */
const DOT_SEGMENT_PAYLOADS = [
  '/.//evil.example/x',
  '/./\\evil.example',
  '/%2e//evil.example',
  '/%2E%2E//evil.example',
  '/..//evil.example',
  '/a/..//evil.example',
  '/././/evil.example',
  '/.%2F/evil.example',
  '/./\t/evil.example',
  '/.\t//evil.example',
  '/.\n//evil.example',
  '/%2e\t//evil.example',
];
const EVIL = /evil\.example|javascript:|data:/i;

describe('cross-site requests', () => {
  it('every route with an action refuses a cross-site POST with 403 and changes nothing', async () => {
    const actions = app.routes.filter((route) => route.action && !route.parent);
    expect(actions.length).toBeGreaterThan(10);
    const otherOrigin = app.origin.replace('127.0.0.1', '127.0.0.2');
    const attacks: Array<[string, Record<string, string>]> = [
      ['Origin of another loopback origin', { origin: otherOrigin, 'sec-fetch-site': 'same-site' }],
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Origin: null', { origin: 'null' }],
    ];
    const before = await fingerprint();
    const failures: string[] = [];
    let cases = 0;
    for (const route of actions) {
      const url = `${app.origin}${concrete(route.path)}`;
      for (const [name, headers] of attacks) {
        for (const dataRequest of [false, true]) {
          cases++;
          const target = dataRequest ? `${url.replace(/\/$/, '')}.data` : url;
          const response = await fetch(target, {
            method: 'POST',
            redirect: 'manual',
            headers: { ...headers, cookie: buyerCookie, 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              intent: 'delete',
              email: 'csrf-victim@example.com',
              password: 'csrf-password-123',
              rating: '1',
              comment: 'csrf',
              confirm: 'DELETE',
            }),
          });
          if (response.status !== 403)
            failures.push(`${route.path} (${name}${dataRequest ? ', .data' : ''}) → ${response.status}`);
        }
      }
    }
    const changed = changedTables(before, await fingerprint());
    failures.push(...changed.map((table) => `data changed: ${table}`));
    // The victim is still signed in: no sign-out, no deletion went through.
    const still = await fetch(`${app.origin}/profile`, { headers: { cookie: buyerCookie }, redirect: 'manual' });
    if (still.status !== 200) failures.push(`the victim's session ended (/profile → ${still.status})`);
    recordTally({ check: 'CSRF', counts: 'cross-site POSTs not refused with 403, or data changed', cases, failures });
    expect(failures).toEqual([]);
  });
});

describe('open redirects', () => {
  it('every return-path parameter keeps every Location and link on this origin', async () => {
    const names = redirectParameters();
    const payloads = [...(FULL ? REDIRECT_PAYLOADS : REDIRECT_PAYLOADS.slice(0, 8)), ...DOT_SEGMENT_PAYLOADS];
    expect(names).toEqual(expect.arrayContaining(['next', 'redirectTo', 'returnTo']));
    const failures: string[] = [];
    let cases = 0;
    const check = async (label: string, response: Response) => {
      cases++;
      if (response.status >= 500) failures.push(`${label} → ${response.status}`);
      const location = response.headers.get('location');
      if (location !== null && !sameOrigin(location)) failures.push(`${label} → Location ${JSON.stringify(location)}`);
      if ((response.headers.get('content-type') ?? '').includes('text/html')) {
        for (const link of offSiteLinks(await response.text(), EVIL))
          failures.push(`${label} → link ${JSON.stringify(link)}`);
      } else await response.body?.cancel();
    };
    // The reliability suite sends each payload to each route signed out and signed in; `npm test`
    // as one of the two, alternating, so that each route and each payload meets both visitors.
    const visitors = ['', adminCookie];
    for (const [routeIndex, route] of gettable().entries()) {
      for (const [payloadIndex, payload] of payloads.entries()) {
        const query = new URLSearchParams(names.map((name) => [name, payload]));
        const url = `${app.origin}${concrete(route.path)}?${query}`;
        for (const cookie of FULL ? visitors : [visitors[(routeIndex + payloadIndex) % 2]!]) {
          await check(
            `GET ${route.path} ${JSON.stringify(payload)}${cookie ? ' (signed in)' : ''}`,
            await fetch(url, { headers: { cookie }, redirect: 'manual' }),
          );
        }
      }
    }
    // Actions signed out, with the credentials of an account, so the sign-in succeeds and redirects.
    for (const route of app.routes.filter((candidate) => candidate.action && !candidate.parent)) {
      for (const payload of payloads) {
        const body = new URLSearchParams([
          ['email', 'seller@demo.test'],
          ['password', 'demo-password'],
          ...names.map((name) => [name, payload]),
        ]);
        const response = await fetch(
          `${app.origin}${concrete(route.path)}?${new URLSearchParams(names.map((name) => [name, payload]))}`,
          {
            method: 'POST',
            redirect: 'manual',
            headers: { origin: app.origin, 'content-type': 'application/x-www-form-urlencoded' },
            body,
          },
        );
        await check(`POST ${route.path} ${JSON.stringify(payload)}`, response);
      }
    }
    recordTally({ check: 'Open redirects', counts: 'off-origin Locations or links, and 5xx', cases, failures });
    expect(failures.slice(0, 10)).toEqual([]);
  }, 240_000);
});

/** Hostile values: long, unicode, NUL and control characters, %-garbage, numbers out of range. */
const hostileValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 200, maxLength: 400 }),
  fc.constantFrom(
    'x'.repeat(10_000),
    '\u0000',
    'a\u0000b',
    '\uFEFF',
    '\uD800',
    '\u202Eevil',
    '<script>alert(1)</script>',
  ),
  fc.constantFrom(
    '-1',
    '0',
    '1e309',
    '-1e309',
    'NaN',
    'Infinity',
    '99999999999999999999999',
    '0x10',
    '1.5',
    '-0',
    '[]',
    '{}',
  ),
  fc.constantFrom("' OR 1=1--", 'price;drop table agents', 'or=(id.gt.0)', '*', 'eq.1', '%', '..', '../../etc/passwd'),
  fc.constantFrom(...REDIRECT_PAYLOADS),
);
/** Raw text put into the query string unencoded: broken escapes and separators. */
const rawGarbage = fc.constantFrom(
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%FF%FE',
  '%2',
  '%%',
  '&&&',
  '==',
  '%C0%AF',
  '%ED%A0%80',
);

function hostileQuery(names: string[]) {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom(...names).map((name) => `${name}[]`) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  );
  const pair = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(key, hostileValue).map(([k, v]) => `${encode(k)}=${encode(v)}`) },
    { weight: 2, arbitrary: fc.tuple(key, rawGarbage).map(([k, v]) => `${encode(k)}=${v}`) },
    { weight: 1, arbitrary: rawGarbage },
  );
  // Repeated keys give arrays; up to 12 pairs.
  return fc.array(pair, { minLength: 1, maxLength: 12 }).map((pairs) => pairs.join('&'));
}

describe('generated hostile URL parameters', () => {
  it('no page answers 5xx, nothing changes, every HTML answer has its security headers', async () => {
    const routes = gettable().filter((route) => route.path !== '/*' && route.path !== '*');
    const names = parameterNames();
    const failures: string[] = [];
    const headerFailures: string[] = [];
    const offSite: string[] = [];
    const covered = new Set<string>();
    let requests = 0;
    let html = 0;
    let cookie = adminCookie;
    const skip = [
      'public.agent_views',
      'public.user_presence',
      'public.downloads',
      'auth.sessions',
      'auth.refresh_tokens',
    ];
    const before = await fingerprint(skip);

    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: routes.length - 1 }),
        hostileQuery(names),
        fc.option(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), { freq: 4 }),
        async (index, query, segment) => {
          const route = routes[index]!;
          covered.add(route.path);
          const url = `${app.origin}${concrete(route.path, segment ?? undefined)}?${query}`;
          for (const signedIn of [false, true]) {
            requests++;
            const label = `GET ${url.slice(app.origin.length, 300)}${signedIn ? ' (signed in)' : ''}`;
            const response = await fetch(url, { headers: { cookie: signedIn ? cookie : '' }, redirect: 'manual' });
            if (signedIn) cookie = cookieHeader(response, cookie);
            const body = await response.text();
            if (response.status >= 500) failures.push(`${label} → ${response.status} ${body.slice(0, 200)}`);
            const location = response.headers.get('location');
            if (location !== null && !sameOrigin(location))
              offSite.push(`${label} → Location ${JSON.stringify(location)}`);
            if ((response.headers.get('content-type') ?? '').includes('text/html')) {
              html++;
              const missing = missingHeaders(response, body);
              if (missing.length) headerFailures.push(`${label}: ${missing.join(', ')}`);
            }
          }
          return true;
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    const changed = changedTables(before, await fingerprint(skip)).map((table) => `data changed: ${table}`);
    recordTally({
      check: `Hostile URL parameters (${RUNS} sets × 2 visitors)`,
      counts: '5xx answers, off-origin Locations and tables changed by GETs',
      cases: requests,
      failures: [...failures, ...offSite, ...changed],
    });
    recordTally({
      check: 'Security headers',
      counts: 'HTML answers without CSP nonce / nosniff / Referrer-Policy / X-Frame-Options, or with X-Powered-By',
      cases: html,
      failures: headerFailures,
    });
    expect(failures.slice(0, 5)).toEqual([]);
    expect(offSite.slice(0, 5)).toEqual([]);
    expect(changed).toEqual([]);
    expect(headerFailures.slice(0, 5)).toEqual([]);
    expect(html).toBeGreaterThan(RUNS / 2);
    if (RUNS >= routes.length * 10) expect(routes.filter((route) => !covered.has(route.path))).toEqual([]);
  }, 600_000);
});

describe('concurrent purchases', () => {
  /** 50 in the reliability suite, 10 in `npm test`. */
  const BUYS = FULL ? 50 : 10;

  it(`${BUYS} simultaneous purchases of one agent by one buyer record exactly one`, async () => {
    // A published agent of another seller that the demo buyer holds no purchase of.
    const { rows } = await app.backend.db.query<{ id: string; buyer: string }>(
      `select a.id, b.id as buyer from public.agents a, public.users b
       where b.username = 'demo_buyer' and a.status = 'published' and a.seller_id <> b.id
         and not exists (select 1 from public.purchases p where p.agent_id = a.id and p.buyer_id = b.id)
       order by a.created_at desc limit 1`,
    );
    const { id: agentId, buyer } = rows[0]!;
    const url = `${app.origin}/agent/${agentId}/checkout`;
    // The price the order summary shows the buyer, which its form (Confirm purchase) carries.
    const page = await (await fetch(url, { headers: { cookie: buyerCookie } })).text();
    const price = page.match(/name="price" value="([^"]+)"/)![1]!;
    // Each request a separate form (another tab): its own idempotency key, all at once.
    const answers = await Promise.all(
      Array.from({ length: BUYS }, () =>
        fetch(url, {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: app.origin, cookie: buyerCookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ intent: 'buy', idempotencyKey: crypto.randomUUID(), price }),
        }).then(async (response) => {
          await response.body?.cancel();
          return response.status;
        }),
      ),
    );
    const { rows: purchases } = await app.backend.db.query<{ status: string }>(
      `select status from public.purchases where agent_id = $1 and buyer_id = $2`,
      [agentId, buyer],
    );
    const failures: string[] = [];
    if (purchases.length !== 1) failures.push(`${purchases.length} purchases recorded`);
    if (purchases[0]?.status !== 'completed') failures.push(`the purchase is ${purchases[0]?.status ?? 'missing'}`);
    const bought = answers.filter((status) => status === 303).length;
    if (bought !== 1) failures.push(`${bought} answers said bought (303)`);
    const others = answers.filter((status) => status !== 303 && status !== 409);
    if (others.length) failures.push(`answers other than 303/409: ${others.join(', ')}`);
    recordTally({
      check: `Concurrent purchases (${BUYS} at once)`,
      counts: 'purchases beyond exactly one, answers that claim another purchase, and 5xx',
      cases: BUYS,
      failures,
    });
    expect(failures).toEqual([]);
  }, 120_000);
});

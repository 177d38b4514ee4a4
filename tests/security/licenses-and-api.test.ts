/**
 * Licence keys on the whole app (real request handler, the embedded backend in memory with the
 * demo data; ADR 073): every completed purchase has a key, shown to its buyer in My Collection
 * and on the invoice, never stored; the public verify endpoint answers a wrong key and an unknown
 * agent alike, counts activations up to the agent's limit (also twenty at once), and says when a
 * licence is refunded or disabled; the buyer resets activations once a day; the seller disables a
 * licence with a reason (audited), nobody else can; checks are rate limited per key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getPage,
  postForm,
  signInThroughApp,
  sqlOn,
  startAppInProcess,
  type AppInProcess,
} from '../support/app-in-process';
import { anonClient } from '../support/clients';
import type { ContractTarget } from '../support/contract-target';

let app: AppInProcess;
const PER_KEY_LIMIT = 40;

beforeAll(async () => {
  app = await startAppInProcess({
    LICENSE_VERIFY_RATE_LIMIT_PER_IP: '100000',
    LICENSE_VERIFY_RATE_LIMIT_PER_KEY: String(PER_KEY_LIMIT),
  });
}, 120_000);
afterAll(() => app?.close());

const sql = <Row>(text: string, params: unknown[] = []) => sqlOn<Row>(app, text, params);

const BUYER = 'buyer@demo.test';
const KEY_SHAPE = /([0-9A-F]{4}-){7}[0-9A-F]{4}/g;

function verify(body: unknown, init: { json?: boolean } = { json: true }) {
  return fetch(`${app.origin}/api/v1/licenses/verify`, {
    method: 'POST',
    headers: { 'content-type': init.json ? 'application/json' : 'application/x-www-form-urlencoded' },
    body: init.json ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>),
  });
}

/** The buyer's licences as My Collection shows them: agent id → key. */
async function collectionKeys(cookie: string): Promise<Map<string, string>> {
  const html = await (await getPage(app.origin, '/dashboard/collection', cookie)).text();
  const keys = new Map<string, string>();
  // Each card links its agent before its key.
  for (const card of html.split('<article').slice(1)) {
    const agent = card.match(/href="\/agent\/([0-9a-f-]{36})"/)?.[1];
    const key = card.match(KEY_SHAPE)?.[0];
    if (agent && key) keys.set(agent, key);
  }
  return keys;
}

let buyerCookie: string;
let agentId: string;
let key: string;

beforeAll(async () => {
  buyerCookie = await signInThroughApp(app.origin, BUYER);
  const keys = await collectionKeys(buyerCookie);
  [agentId, key] = [...keys.entries()][0]!;
});

describe('a licence key', () => {
  it('is shown for every purchase in My Collection, and the database holds only its first half', async () => {
    const keys = await collectionKeys(buyerCookie);
    const [completed] = await sql<{ count: number }>(
      `select count(*)::int as count from public.purchases
        where buyer_id = (select id from public.users where email = $1) and status = 'completed'`,
      [BUYER],
    );
    expect(keys.size).toBe(Math.min(completed!.count, 24)); // one page of the collection
    const compact = key.replaceAll('-', '');
    const rows = await sql<{ row: string }>(`select row_to_json(l)::text as row from public.licenses l`);
    expect(rows.some((row) => row.row.includes(compact.slice(0, 16)))).toBe(true);
    expect(rows.some((row) => row.row.includes(compact.slice(16)))).toBe(false);
  });

  it('verifies for its agent, as JSON or as a form, with the versions it covers', async () => {
    const answer = await verify({ agent_id: agentId, license_key: key });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toMatchObject({ valid: true, license: { agent: { id: agentId }, status: 'active' } });
    expect(body.license.versions.latest).toMatch(/^\d+\.\d+/);
    // Lower case, spaces instead of dashes: the same key.
    const typed = await verify(
      { agent_id: agentId, license_key: key.toLowerCase().replaceAll('-', ' ') },
      { json: false },
    );
    expect(typed.status).toBe(200);
    expect((await typed.json()).valid).toBe(true);
  });

  it('answers a wrong key, another agent and an unknown agent alike', async () => {
    const [other] = await sql<{ id: string }>(`select id from public.agents where id <> $1 limit 1`, [agentId]);
    const last = key.at(-1) === '0' ? '1' : '0';
    const answers = await Promise.all([
      verify({ agent_id: agentId, license_key: key.slice(0, -1) + last }),
      verify({ agent_id: other!.id, license_key: key }),
      verify({ agent_id: crypto.randomUUID(), license_key: key }),
      verify({ agent_id: agentId, license_key: 'not a key at all' }),
    ]);
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toEqual({
      error: { code: 'license_not_found', message: 'No licence with this key exists for this agent.' },
    });
  });

  it('refuses bad requests with the API’s error shape, never a 500', async () => {
    const cases = [
      fetch(`${app.origin}/api/v1/licenses/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"agent_id":',
      }),
      verify({ license_key: key }),
      verify({ agent_id: "1' or '1'='1", license_key: key }),
      verify({ agent_id: agentId, license_key: 'x'.repeat(5000) }),
      verify([1, 2]),
    ];
    const answers = await Promise.all(cases);
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400]);
    const missing = await answers[1]!.json();
    expect(missing.error.code).toBe('invalid_request');
    expect(missing.error.fields.agent_id).toBeTruthy();
    const get = await fetch(`${app.origin}/api/v1/licenses/verify`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('is on the invoice of its purchase', async () => {
    const [purchase] = await sql<{ id: string }>(
      `select p.id from public.purchases p join public.users u on u.id = p.buyer_id
        where u.email = $1 and p.agent_id = $2 and p.status = 'completed' and p.order_id is null`,
      [BUYER, agentId],
    );
    const invoice = await (
      await getPage(app.origin, `/dashboard/billing/invoices/${purchase!.id}`, buyerCookie)
    ).text();
    expect(invoice.includes(key), 'the key on the invoice').toBe(true);
  });
});

describe('activations', () => {
  it('count up to the agent’s limit, also twenty at once; the buyer resets them once a day', async () => {
    const [row] = await sql<{ id: string; license: string }>(
      `select p.agent_id as id, l.id as license from public.licenses l join public.purchases p on p.id = l.purchase_id
        join public.users u on u.id = l.buyer_id
        where u.email = $1 and p.status = 'completed' and p.agent_id <> $2 limit 1`,
      [BUYER, agentId],
    );
    const target = row!.id;
    const targetKey = (await collectionKeys(buyerCookie)).get(target)!;
    await sql(`update public.agents set activation_limit = 3 where id = $1`, [target]);

    const answers = await Promise.all(
      Array.from({ length: 20 }, () => verify({ agent_id: target, license_key: targetKey, increment_uses: true })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 409)).toHaveLength(17);
    const refused = await answers.find((answer) => answer.status === 409)!.json();
    expect(refused).toMatchObject({
      valid: false,
      error: { code: 'activation_limit_reached' },
      license: { uses: 3, max_uses: 3 },
    });
    // A check without increment_uses still says it is valid.
    expect((await (await verify({ agent_id: target, license_key: targetKey })).json()).valid).toBe(true);

    // My Collection: "3 of 3 activations used", and a reset.
    const page = await (await getPage(app.origin, '/dashboard/collection', buyerCookie)).text();
    expect(page).toContain('3 of 3 activations used');
    const reset = await postForm(app.origin, '/dashboard/collection', buyerCookie, {
      intent: 'reset-activations',
      licenseId: row!.license,
    });
    expect(reset.status).toBe(303);
    expect(
      (await sql<{ uses: number }>(`select uses from public.licenses where id = $1`, [row!.license]))[0]!.uses,
    ).toBe(0);
    const again = await postForm(app.origin, '/dashboard/collection', buyerCookie, {
      intent: 'reset-activations',
      licenseId: row!.license,
    });
    expect(again.status).toBe(429);
    expect(await again.text()).toContain('Activations can be reset once a day.');
    // Another buyer's licence is not theirs to reset.
    const stranger = await signInThroughApp(app.origin, 'noah.williams@demo.test');
    const theirs = await postForm(app.origin, '/dashboard/collection', stranger, {
      intent: 'reset-activations',
      licenseId: row!.license,
    });
    expect(theirs.status).toBe(404);
  });
});

describe('a licence’s status', () => {
  it('is refunded once its purchase is', async () => {
    const [row] = await sql<{ agent_id: string; purchase_id: string }>(
      `select l.agent_id, l.purchase_id from public.licenses l join public.purchases p on p.id = l.purchase_id
        where p.status = 'refunded' limit 1`,
    );
    expect(row, 'a refunded demo purchase').toBeTruthy();
    const [license] = await sql<{ id: string; code: string }>(
      `select id, code from public.licenses where purchase_id = $1`,
      [row!.purchase_id],
    );
    // The key as the app makes it: read through the invoice's code path is the buyer's; here the
    // refunded purchase's buyer signs in and reads the invoice.
    const [buyer] = await sql<{ email: string }>(
      `select u.email from public.users u join public.purchases p on p.buyer_id = u.id where p.id = $1`,
      [row!.purchase_id],
    );
    const cookie = await signInThroughApp(app.origin, buyer!.email);
    const invoice = await (await getPage(app.origin, `/dashboard/billing/invoices/${row!.purchase_id}`, cookie)).text();
    const refundedKey = invoice.match(KEY_SHAPE)?.[0];
    expect(refundedKey?.replaceAll('-', '').slice(0, 16)).toBe(license!.code);
    const answer = await verify({ agent_id: row!.agent_id, license_key: refundedKey, increment_uses: true });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ valid: false, license: { status: 'refunded', uses: 0 } });
  });

  it('is disabled by its seller with a reason (audited), shown to the buyer; nobody else can', async () => {
    const [sale] = await sql<{ license: string; seller: string; purchase: string }>(
      `select l.id as license, s.email as seller, l.purchase_id as purchase from public.licenses l
        join public.users s on s.id = l.seller_id where l.agent_id = $1 and l.buyer_id = (select id from public.users where email = $2)`,
      [agentId, BUYER],
    );
    // The buyer, and another seller, cannot.
    const api = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    await api.auth.signInWithPassword({ email: BUYER, password: 'demo-password' });
    const byBuyer = await api.rpc('set_license_disabled', { license: sale!.license, reason: 'mine now' });
    expect(byBuyer.error?.code).toBe('PT404');
    expect((await api.from('licenses').update({ uses: 0 }).eq('id', sale!.license)).error?.code).toBe('42501');
    const [otherSeller] = await sql<{ email: string }>(
      `select email from public.users where user_type = 'seller' and email <> $1 limit 1`,
      [sale!.seller],
    );
    const otherCookie = await signInThroughApp(app.origin, otherSeller!.email);
    const refused = await postForm(app.origin, '/dashboard/earnings', otherCookie, {
      intent: 'disable-license',
      licenseId: sale!.license,
      reason: 'Not mine to disable',
    });
    expect(refused.status).toBe(404);

    const sellerCookie = await signInThroughApp(app.origin, sale!.seller);
    const earnings = await (
      await getPage(app.origin, `/dashboard/earnings?license=${sale!.purchase}`, sellerCookie)
    ).text();
    expect(earnings).toContain('Reason for disabling the licence');
    const tooShort = await postForm(app.origin, '/dashboard/earnings', sellerCookie, {
      intent: 'disable-license',
      licenseId: sale!.license,
      reason: 'x',
    });
    expect(tooShort.status).toBe(400);
    const disabled = await postForm(app.origin, '/dashboard/earnings', sellerCookie, {
      intent: 'disable-license',
      licenseId: sale!.license,
      reason: 'Shared on a public forum',
    });
    expect(disabled.status).toBe(303);
    expect(await (await verify({ agent_id: agentId, license_key: key, increment_uses: true })).json()).toMatchObject({
      valid: false,
      license: { status: 'disabled', disabled_reason: 'Shared on a public forum' },
    });
    const collection = await (await getPage(app.origin, '/dashboard/collection', buyerCookie)).text();
    expect(collection.includes('The seller disabled this licence: Shared on a public forum')).toBe(true);
    const audit = await sql<{ action: string; reason: string }>(
      `select action, reason from public.audit_log where target_id = $1 order by created_at`,
      [sale!.license],
    );
    expect(audit).toEqual([{ action: 'license.disabled', reason: 'Shared on a public forum' }]);

    const enabled = await postForm(app.origin, '/dashboard/earnings', sellerCookie, {
      intent: 'enable-license',
      licenseId: sale!.license,
    });
    expect(enabled.status).toBe(303);
    expect((await (await verify({ agent_id: agentId, license_key: key })).json()).valid).toBe(true);
  });
});

describe('licence checks', () => {
  it('are rate limited per key, from any address', async () => {
    const bogus = Array.from({ length: 32 }, () => '0123456789ABCDEF'[Math.floor(Math.random() * 16)]).join('');
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= PER_KEY_LIMIT; attempt += 1) {
      statuses.push((await verify({ agent_id: agentId, license_key: bogus })).status);
    }
    expect(statuses.slice(0, PER_KEY_LIMIT).every((status) => status === 404)).toBe(true);
    const limited = await verify({ agent_id: agentId, license_key: bogus });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await limited.json()).error.code).toBe('rate_limited');
  });
});

/**
 * Licence keys on the whole app (real request handler, the embedded backend in memory with the
 * demo data; ADR 073): every completed purchase has a key, shown to its buyer in My Collection
 * and on the invoice, never stored; the public verify endpoint answers a wrong key and an unknown
 * agent alike, counts activations up to the agent's limit (also twenty at once), and says when a
 * licence is refunded or disabled; the buyer resets activations once a day; the seller disables a
 * licence with a reason (audited), nobody else can; checks are rate limited per key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, PRIVATE_ADDRESS_REFUSAL, runWebhookDeliveries } from '~/server/webhooks.server';
import {
  getPage,
  postForm,
  signInThroughApp,
  sqlOn,
  startAppInProcess,
  type AppInProcess,
} from '../support/app-in-process';
import { anonClient, serviceClient } from '../support/clients';
import { validPackage, zip } from '../support/packages';
import { readOutbox } from '../../packages/supabase-embedded/src/auth/outbox';
import type { ContractTarget } from '../support/contract-target';

let app: AppInProcess;
const PER_KEY_LIMIT = 40;

beforeAll(async () => {
  app = await startAppInProcess({
    // The test drives the webhook runner itself (runWebhookDeliveries), and adds an http:// endpoint.
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
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

describe('the seller API', () => {
  const SELLER = 'seller@demo.test';
  let sellerCookie: string;

  const api = (path: string, token: string | null, init: RequestInit = {}) =>
    fetch(`${app.origin}/api/v1${path}`, {
      ...init,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
    });
  const jsonBody = (method: string, body: unknown): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  /** A token made on the Developers page, as a seller makes one. */
  async function createToken(cookie: string, name: string, scopes: string[]): Promise<string> {
    const fields = new URLSearchParams({ intent: 'create', name, expires: '30' });
    for (const scope of scopes) fields.append('scopes', scope);
    const answer = await postForm(app.origin, '/dashboard/developers', cookie, fields);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const tokens = html.match(/am_pat_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(new Set(tokens).size, 'the token is shown once').toBe(1);
    return tokens[0]!;
  }

  let full: string;
  beforeAll(async () => {
    sellerCookie = await signInThroughApp(app.origin, SELLER);
    full = await createToken(sellerCookie, 'CI', ['listings:write', 'sales:read']);
  });

  it('keeps only a token’s hash; the page lists it by its prefix; buyers cannot make one', async () => {
    const rows = await sql<{ row: string }>(`select row_to_json(t)::text as row from public.api_tokens t`);
    expect(rows.some((row) => row.row.includes(full))).toBe(false);
    const page = await (await getPage(app.origin, '/dashboard/developers', sellerCookie)).text();
    expect(page.includes(full)).toBe(false);
    expect(page.includes(`${full.slice(0, 11)}…`)).toBe(true);
    expect((await getPage(app.origin, '/dashboard/developers', buyerCookie)).status).toBe(403);
    const buyerApi = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    await buyerApi.auth.signInWithPassword({ email: BUYER, password: 'demo-password' });
    const [buyer] = await sql<{ id: string }>(`select id from public.users where email = $1`, [BUYER]);
    const forged = await buyerApi.from('api_tokens').insert({
      user_id: buyer!.id,
      name: 'mine',
      scopes: ['listings:write'],
      token_hash: 'a'.repeat(64),
      token_prefix: 'am_pat_aaaa',
    });
    expect(forged.error?.code).toBe('42501');
    // Nobody reads a hash back through the Data API, not even its owner.
    const sellerApi = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    await sellerApi.auth.signInWithPassword({ email: SELLER, password: 'demo-password' });
    expect((await sellerApi.from('api_tokens').select('token_hash')).error?.code).toBe('42501');
  });

  it('answers 401 without a live token, in the API’s error shape', async () => {
    for (const token of [null, 'am_pat_nope', `am_pat_${'A'.repeat(43)}`]) {
      const answer = await api('/agents', token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await answer.json()).error.code).toBe('unauthorized');
    }
    const unknown = await api('/nothing-here', full);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe('not_found');
  });

  it('lists the owner’s agents page by page, never another seller’s', async () => {
    const [seller] = await sql<{ id: string; count: number }>(
      `select u.id, (select count(*)::int from public.agents a where a.seller_id = u.id) as count
         from public.users u where u.email = $1`,
      [SELLER],
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await api(`/agents?limit=2${cursor ? `&cursor=${cursor}` : ''}`, full);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { data: { id: string }[]; next_cursor: string | null };
      seen.push(...body.data.map((agent) => agent.id));
      cursor = body.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(seller!.count);
    const owners = await sql<{ seller_id: string }>(`select distinct seller_id from public.agents where id = any($1)`, [
      seen,
    ]);
    expect(owners).toEqual([{ seller_id: seller!.id }]);
    expect((await api('/agents?cursor=bogus', full)).status).toBe(400);
    expect((await api('/agents?limit=1000', full)).status).toBe(400);
  });

  let draftId: string;

  it('creates a draft under the Upload form’s rules, and updates only its own listings', async () => {
    const refused = await api(
      '/agents',
      full,
      jsonBody('POST', { name: '', description: 'x', category: 'Nope', price: -1 }),
    );
    expect(refused.status).toBe(400);
    const errors = (await refused.json()).error.fields;
    expect(errors.name).toEqual(['Please enter a name for your agent.']);
    expect(errors.category).toEqual(['Please choose one of the categories.']);
    expect(errors.price[0]).toMatch(/^The price must be a number from 0 to/);

    const created = await api(
      '/agents',
      full,
      jsonBody('POST', {
        name: 'CI Agent',
        description: 'Published from CI.',
        category: 'Sales',
        price: 12.5,
        features: ['One', 'Two'],
        activation_limit: 2,
      }),
    );
    expect(created.status).toBe(201);
    const agent = await created.json();
    draftId = agent.id;
    expect(agent).toMatchObject({ status: 'draft', price: 12.5, features: ['One', 'Two'], activation_limit: 2 });
    expect(created.headers.get('location')).toBe(`/api/v1/agents/${draftId}`);

    const patched = await api(`/agents/${draftId}`, full, jsonBody('PATCH', { price: '15', activation_limit: null }));
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ name: 'CI Agent', price: 15, activation_limit: null });

    const [theirs] = await sql<{ id: string }>(
      `select a.id from public.agents a join public.users u on u.id = a.seller_id where u.email <> $1 limit 1`,
      [SELLER],
    );
    const foreign = await api(`/agents/${theirs!.id}`, full, jsonBody('PATCH', { name: 'Mine now' }));
    expect(foreign.status).toBe(404);
    expect(
      (await sql<{ name: string }>(`select name from public.agents where id = $1`, [theirs!.id]))[0]!.name,
    ).not.toBe('Mine now');
    expect((await api(`/agents/${theirs!.id}/versions`, full)).status).toBe(404);
  });

  it('publishes versions as multipart, under the Edit form’s rules', async () => {
    const upload = (version: string, notes: string | null, manifestVersion = version) => {
      const form = new FormData();
      form.set('version', version);
      if (notes !== null) form.set('notes', new Blob([notes], { type: 'text/markdown' }), 'CHANGELOG.md');
      const manifest = validPackage((value) => (value.version = manifestVersion));
      form.set('package', new Blob([JSON.stringify(manifest)], { type: 'application/json' }), 'agent.json');
      return api(`/agents/${draftId}/versions`, full, { method: 'POST', body: form });
    };
    const first = await upload('1.0.0', '# First');
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ version: '1.0.0', release_notes: '# First' });
    const lower = await upload('0.9.0', 'Older');
    expect(lower.status).toBe(400);
    expect((await lower.json()).error.fields.version).toEqual(['The new version must be higher than 1.0.0.']);
    const noNotes = await upload('1.1.0', null);
    expect(noNotes.status).toBe(400);
    expect((await noNotes.json()).error.fields.release_notes).toEqual([
      'Please describe what changed in this version.',
    ]);
    const second = await upload('1.1.0', 'Faster.');
    expect(second.status).toBe(201);
    const listed = await (await api(`/agents/${draftId}/versions`, full)).json();
    expect(listed.data.map((row: { version: string }) => row.version)).toEqual(['1.1.0', '1.0.0']);
    const noFile = await api(`/agents/${draftId}/versions`, full, jsonBody('POST', { version: '2.0.0' }));
    expect(noFile.status).toBe(400);
  });

  it('tells the buyers of an agent of its new version: an email, and “Update available” until they download it', async () => {
    // An agent of demo_seller's that the demo buyer owns.
    const [owned] = await sql<{ id: string; version: string }>(
      `select a.id, (select v.version from public.agent_versions v where v.agent_id = a.id
                      order by v.created_at desc limit 1) as version
         from public.agents a
        where a.seller_id = (select id from public.users where email = $1)
          and exists (select 1 from public.purchases p where p.agent_id = a.id and p.status = 'completed'
                        and p.buyer_id = (select id from public.users where email = $2))
          and exists (select 1 from public.agent_versions v where v.agent_id = a.id)
        limit 1`,
      [SELLER, BUYER],
    );
    expect(owned, 'an agent of demo_seller the demo buyer owns').toBeTruthy();
    const next = `${Number(owned!.version.split('.')[0]) + 1}.0.0`;
    const form = new FormData();
    form.set('version', next);
    form.set('notes', 'Reads PDFs now.');
    const manifest = validPackage((value) => (value.version = next));
    form.set('package', new Blob([JSON.stringify(manifest)], { type: 'application/json' }), 'agent.json');
    expect((await api(`/agents/${owned!.id}/versions`, full, { method: 'POST', body: form })).status).toBe(201);

    const mark = `Update available: version ${next}`;
    expect((await (await getPage(app.origin, '/dashboard/collection', buyerCookie)).text()).includes(mark)).toBe(true);
    await expect
      .poll(async () =>
        (await readOutbox(app.backend.db, { to: BUYER })).filter((mail) => mail.type === 'update_notice'),
      )
      .toHaveLength(1);
    const [notice] = (await readOutbox(app.backend.db, { to: BUYER })).filter((mail) => mail.type === 'update_notice');
    expect(notice!.text).toContain('Reads PDFs now.');
    // Downloading the new version clears the mark.
    expect((await getPage(app.origin, `/agent/${owned!.id}/download`, buyerCookie)).status).toBe(200);
    expect((await (await getPage(app.origin, '/dashboard/collection', buyerCookie)).text()).includes(mark)).toBe(false);
  });

  it('answers odd input with a 400, never a 500 or 503 (a review’s findings)', async () => {
    const deep = `{"z":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`;
    const deepAnswer = await fetch(`${app.origin}/api/v1/licenses/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: deep,
    });
    expect(deepAnswer.status).toBe(400);
    const surrogate = await api(`/agents/${draftId}`, full, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Agent \\ud800 name"}',
    });
    expect(surrogate.status).toBe(400);
    const form = new FormData();
    form.set('version', '9.0.0');
    form.set('notes', new Blob(['a\0b']), 'CHANGELOG.md');
    form.set('package', new Blob([JSON.stringify(validPackage())], { type: 'application/json' }), 'agent.json');
    const nulNotes = await api(`/agents/${draftId}/versions`, full, { method: 'POST', body: form });
    expect(nulNotes.status).toBe(400);
    expect(
      await sql(`select 1 from public.agent_versions where agent_id = $1 and version = '9.0.0'`, [draftId]),
    ).toEqual([]);
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    for (const bad of [
      cursor('2024-01-01"|00000000-0000-0000-0000-000000000000'),
      cursor('2024-01-01.|00000000-0000-0000-0000-000000000000'),
      cursor(`2024-01-01T00:00:00Z|${'-'.repeat(36)}`),
    ]) {
      expect((await api(`/sales?cursor=${bad}`, full)).status).toBe(400);
    }
  });

  it('keeps the first of parallel uploads of one version, and takes packages over 1 MB', async () => {
    const upload = (content: string) => {
      const form = new FormData();
      form.set('version', '5.0.0');
      form.set('notes', 'Parallel.');
      const manifest = validPackage((value) => {
        value.version = '5.0.0';
        value.readme = content;
      });
      form.set('package', new Blob([JSON.stringify(manifest)], { type: 'application/json' }), 'same.json');
      return api(`/agents/${draftId}/versions`, full, { method: 'POST', body: form });
    };
    const answers = await Promise.all(['# a', '# bb', '# ccc', '# dddd'].map(upload));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    const again = await upload('# e');
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe('Version 5.0.0 exists already.');
    const winner = await answers.find((answer) => answer.status === 201)!.json();
    const [row] = await sql<{ file_path: string; file_size: number }>(
      `select file_path, file_size from public.agent_versions where agent_id = $1 and version = '5.0.0'`,
      [draftId],
    );
    expect(row!.file_size).toBe(winner.file_size);
    const stored = await serviceClient({
      url: app.origin,
      serviceRoleKey: app.backend.serviceRoleKey,
    } as ContractTarget)
      .storage.from('agent-packages')
      .download(row!.file_path);
    expect(stored.data?.size).toBe(winner.file_size);

    const large = new FormData();
    large.set('version', '6.0.0');
    large.set('notes', 'Bigger.');
    const largeZip = zip(
      {
        'agent.json': new TextEncoder().encode(JSON.stringify(validPackage((v) => (v.version = '6.0.0')))),
        'weights.bin': new Uint8Array(1_200_000).map((_, i) => (i * 7919) % 256),
      },
      { method: 0 },
    );
    large.set('package', new Blob([largeZip], { type: 'application/zip' }), 'agent.zip');
    const answer = await api(`/agents/${draftId}/versions`, full, { method: 'POST', body: large });
    expect(answer.status).toBe(201);
    expect((await answer.json()).file_size).toBe(largeZip.byteLength);
  });

  it('reads sales and earnings with sales:read, and nothing without the scope', async () => {
    const salesOnly = await createToken(sellerCookie, 'Reports', ['sales:read']);
    const sales = await api('/sales?limit=100', salesOnly);
    expect(sales.status).toBe(200);
    const body = await sales.json();
    const [seller] = await sql<{ count: number }>(
      `select count(*)::int as count from public.purchases p join public.users u on u.id = p.seller_id where u.email = $1`,
      [SELLER],
    );
    expect(body.data.length).toBe(Math.min(seller!.count, 100));
    const earnings = await api('/earnings', salesOnly);
    expect(earnings.status).toBe(200);
    expect((await earnings.json()).total.sales_count).toBeGreaterThan(0);
    const forbidden = await api('/agents', salesOnly);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error.message).toMatch(/lacks the scope listings:write/);
  });

  it('stops a revoked token at once', async () => {
    const temporary = await createToken(sellerCookie, 'Temporary', ['sales:read']);
    expect((await api('/sales', temporary)).status).toBe(200);
    const [row] = await sql<{ id: string }>(`select id from public.api_tokens where name = 'Temporary'`);
    const revoked = await postForm(app.origin, '/dashboard/developers', sellerCookie, {
      intent: 'revoke',
      tokenId: row!.id,
    });
    expect(revoked.status).toBe(303);
    expect((await api('/sales', temporary)).status).toBe(401);
    // Another seller cannot revoke someone else's token.
    const other = await signInThroughApp(app.origin, 'nova.labs@demo.test');
    const [theirs] = await sql<{ id: string }>(`select id from public.api_tokens where name = 'CI'`);
    const refused = await postForm(app.origin, '/dashboard/developers', other, {
      intent: 'revoke',
      tokenId: theirs!.id,
    });
    expect(refused.status).toBe(404);
    expect(await sql(`select 1 from public.api_tokens where id = $1`, [theirs!.id])).toHaveLength(1);
  });

  it('is described by an OpenAPI 3.1 document generated from its schemas, rendered on the API page', async () => {
    const answer = await fetch(`${app.origin}/api/v1/openapi.json`);
    expect(answer.status).toBe(200);
    const document = await answer.json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual([
      '/licenses/verify',
      '/agents',
      '/agents/{agentId}',
      '/agents/{agentId}/versions',
      '/sales',
      '/earnings',
    ]);
    expect(Object.keys(document.components.schemas.LicenseVerifyRequest.properties)).toEqual([
      'agent_id',
      'license_key',
      'increment_uses',
    ]);
    const page = await (await getPage(app.origin, '/api', null)).text();
    expect(page).toContain('/api/v1/agents/{agentId}/versions');
    expect(page).toContain('Publish a new version');
  });
});

describe('webhooks', () => {
  const SELLER = 'seller@demo.test';
  type Received = { headers: Record<string, string | string[] | undefined>; body: string };
  const received: Received[] = [];
  let answers: number[] = [];
  let receiver: Server;
  let port: number;
  let sellerCookie: string;
  let secret: string;
  let endpointId: string;

  const service = () =>
    serviceClient({ url: app.origin, serviceRoleKey: app.backend.serviceRoleKey } as ContractTarget) as never;
  const deliver = (allowPrivate: boolean, timeoutMs?: number) =>
    runWebhookDeliveries({ service: service(), allowPrivate, timeoutMs });
  const deliveries = () =>
    sql<{ id: string; event_type: string; status: string; attempts: number }>(
      `select id, event_type, status, attempts from public.webhook_deliveries where endpoint_id = $1 order by created_at`,
      [endpointId],
    );
  const dueNow = () =>
    sql(`update public.webhook_deliveries set next_attempt_at = now() where endpoint_id = $1`, [endpointId]);

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        const status = answers.shift() ?? 200;
        if (status === 302) response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
        else if (status === 0)
          return; // never answers
        else response.writeHead(status).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
    sellerCookie = await signInThroughApp(app.origin, SELLER);
    const fields = new URLSearchParams({ intent: 'add-endpoint', url: `http://127.0.0.1:${port}/hook` });
    for (const event of ['sale.completed', 'sale.refunded', 'review.created', 'license.activated']) {
      fields.append('events', event);
    }
    const added = await postForm(app.origin, '/dashboard/developers', sellerCookie, fields);
    expect(added.status).toBe(200);
    secret = (await added.text()).match(/whsec_[A-Za-z0-9+/=]+/)![0];
    [{ id: endpointId }] = (await sql<{ id: string }>(`select id from public.webhook_endpoints`)) as [{ id: string }];
  });
  afterAll(() => new Promise<void>((resolve) => receiver?.close(() => resolve())));

  it('refuses an endpoint that is not a URL, stores one as the parser writes it, and never reveals a secret again', async () => {
    const bad = await postForm(app.origin, '/dashboard/developers', sellerCookie, {
      intent: 'add-endpoint',
      url: 'javascript:alert(1)',
      events: 'sale.completed',
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Enter the endpoint’s https:// address');
    const upper = await postForm(app.origin, '/dashboard/developers', sellerCookie, {
      intent: 'add-endpoint',
      url: 'HTTPS://Hooks.Example.com/agentmarket',
      events: 'review.created',
    });
    expect(upper.status).toBe(200);
    expect(await sql(`select url from public.webhook_endpoints where url like '%example.com%'`)).toEqual([
      { url: 'https://hooks.example.com/agentmarket' },
    ]);
    await sql(`delete from public.webhook_endpoints where url = 'https://hooks.example.com/agentmarket'`);
    const page = await (await getPage(app.origin, '/dashboard/developers', sellerCookie)).text();
    expect(page.includes(secret)).toBe(false);
    expect(page).toContain(`http://127.0.0.1:${port}/hook`);
  });

  it('queues events, refuses a private address, retries, signs per Standard Webhooks, and redelivers', async () => {
    // A sale refunded and a licence activated, of this seller's agents.
    const [sale] = await sql<{ id: string }>(
      `select p.id from public.purchases p join public.users u on u.id = p.seller_id
        where u.email = $1 and p.status = 'completed' limit 1`,
      [SELLER],
    );
    await sql(
      `update public.purchases set status = 'refunded', status_reason = 'Webhook test', refunded_at = now() where id = $1`,
      [sale!.id],
    );
    expect((await deliveries()).map((row) => row.event_type)).toEqual(['sale.refunded']);

    // Production's rule: no delivery to this machine, whatever name resolves to it; the attempt is
    // logged, the endpoint flagged failing.
    await sql(`update public.webhook_endpoints set url = $2 where id = $1`, [
      endpointId,
      `https://localhost:${port}/hook`,
    ]);
    await deliver(false);
    await sql(`update public.webhook_endpoints set url = $2 where id = $1`, [
      endpointId,
      `http://127.0.0.1:${port}/hook`,
    ]);
    expect(received).toHaveLength(0);
    const [attempt] = await sql<{ error: string }>(
      `select error from public.webhook_attempts order by id desc limit 1`,
    );
    expect(attempt!.error).toBe(PRIVATE_ADDRESS_REFUSAL);
    expect(await (await getPage(app.origin, '/dashboard/developers', sellerCookie)).text()).toContain('Failing since');

    // A 500, then a 200: delivered on the third attempt, with a valid signature each time.
    answers = [500];
    await dueNow();
    await deliver(true);
    expect((await deliveries())[0]).toMatchObject({ status: 'pending', attempts: 2 });
    await dueNow();
    await deliver(true);
    expect((await deliveries())[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(received).toHaveLength(2);
    for (const request of received) {
      const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
        type: string;
        data: { sale: { id: string; status: string } };
      };
      expect(verified).toMatchObject({ type: 'sale.refunded', data: { sale: { id: sale!.id, status: 'refunded' } } });
    }
    expect(received[0]!.headers['webhook-id']).toBe(received[1]!.headers['webhook-id']);
    // Tampered bodies do not verify.
    expect(() =>
      new Webhook(secret).verify(`${received[0]!.body} `, received[0]!.headers as Record<string, string>),
    ).toThrow();
    expect(await (await getPage(app.origin, '/dashboard/developers', sellerCookie)).text()).not.toContain(
      'Failing since',
    );

    // The deliveries page lists every attempt; Redeliver sends the same message again.
    const page = await (await getPage(app.origin, `/dashboard/developers/webhooks/${endpointId}`, sellerCookie)).text();
    expect(page).toContain('HTTP 500');
    expect(page).toContain('HTTP 200');
    expect(page).toContain(PRIVATE_ADDRESS_REFUSAL);
    const [delivery] = await deliveries();
    const again = await postForm(app.origin, `/dashboard/developers/webhooks/${endpointId}`, sellerCookie, {
      intent: 'redeliver',
      deliveryId: delivery!.id,
    });
    expect(again.status).toBe(303);
    // Once a minute per delivery.
    const tooSoon = await postForm(app.origin, `/dashboard/developers/webhooks/${endpointId}`, sellerCookie, {
      intent: 'redeliver',
      deliveryId: delivery!.id,
    });
    expect(tooSoon.status).toBe(429);
    await deliver(true);
    expect(received).toHaveLength(3);
    expect(received[2]!.headers['webhook-id']).toBe(`msg_${delivery!.id}`);

    // Through the Data API: the secret is nobody's to read, not even its seller's; another seller
    // reads none of the deliveries; nobody queues or claims deliveries.
    const sellerData = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    await sellerData.auth.signInWithPassword({ email: SELLER, password: 'demo-password' });
    expect((await sellerData.from('webhook_endpoints').select('secret')).error?.code).toBe('42501');
    expect((await sellerData.from('webhook_endpoints').select('url')).data).toHaveLength(1);
    expect((await sellerData.rpc('claim_webhook_deliveries', { max_count: 5 })).error?.code).toBe('42501');
    const novaData = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    await novaData.auth.signInWithPassword({ email: 'nova.labs@demo.test', password: 'demo-password' });
    expect((await novaData.from('webhook_deliveries').select('id')).data).toEqual([]);
    expect((await novaData.from('webhook_attempts').select('id')).data).toEqual([]);
    expect((await novaData.rpc('redeliver_webhook', { delivery: delivery!.id })).error?.code).toBe('PT404');

    // Another seller sees neither the endpoint nor its deliveries, and cannot redeliver.
    const other = await signInThroughApp(app.origin, 'nova.labs@demo.test');
    expect((await getPage(app.origin, `/dashboard/developers/webhooks/${endpointId}`, other)).status).toBe(404);
    const theirs = await postForm(app.origin, `/dashboard/developers/webhooks/${endpointId}`, other, {
      intent: 'redeliver',
      deliveryId: delivery!.id,
    });
    expect(theirs.status).toBe(404);
  });

  it('counts a redirect and a silent endpoint as failures, and a licence activation as an event', async () => {
    const [license] = await sql<{ agent_id: string; purchase_id: string; buyer: string }>(
      `select l.agent_id, l.purchase_id, u.email as buyer from public.licenses l
         join public.purchases p on p.id = l.purchase_id join public.users u on u.id = l.buyer_id
        where l.seller_id = (select id from public.users where email = $1) and p.status = 'completed'
          and l.disabled_at is null and u.email = $2 limit 1`,
      [SELLER, BUYER],
    );
    const keys = await collectionKeys(buyerCookie);
    const activated = await verify({
      agent_id: license!.agent_id,
      license_key: keys.get(license!.agent_id),
      increment_uses: true,
    });
    expect(activated.status).toBe(200);
    const events = await deliveries();
    expect(events.at(-1)!.event_type).toBe('license.activated');

    answers = [302];
    await deliver(true);
    const [redirect] = await sql<{ status_code: number; error: string }>(
      `select status_code, error from public.webhook_attempts order by id desc limit 1`,
    );
    expect(redirect).toEqual({ status_code: 302, error: 'redirects are not followed' });
    answers = [0];
    await dueNow();
    await deliver(true, 300);
    const [silent] = await sql<{ status_code: number | null; error: string }>(
      `select status_code, error from public.webhook_attempts order by id desc limit 1`,
    );
    expect(silent!.status_code).toBeNull();
    expect(silent!.error).toMatch(/no answer within/);
  });

  it('gives each seller a fair share of a claim, and prunes deliveries after 30 days', async () => {
    const [nova] = await sql<{ id: string }>(`select id from public.users where email = 'nova.labs@demo.test'`);
    const [novaEndpoint] = await sql<{ id: string }>(
      `insert into public.webhook_endpoints (seller_id, url, events, secret)
       values ($1, 'https://hooks.example.com/nova', '{review.created}', 'whsec_' || repeat('A', 40)) returning id`,
      [nova!.id],
    );
    const queue = (endpoint: string, seller: string, count: number) =>
      sql(
        `insert into public.webhook_deliveries (endpoint_id, seller_id, event_type, payload, next_attempt_at)
         select $1, $2, 'review.created', '{}'::jsonb, now() - interval '1 minute' from generate_series(1, $3)`,
        [endpoint, seller, count],
      );
    const [seller] = await sql<{ id: string }>(`select id from public.users where email = $1`, [SELLER]);
    await queue(endpointId, seller!.id, 12);
    await queue(novaEndpoint!.id, nova!.id, 2);
    const claimed = await sql<{ url: string }>(`select url from public.claim_webhook_deliveries(20)`);
    expect(claimed.filter((row) => row.url.includes('127.0.0.1'))).toHaveLength(5);
    expect(claimed.filter((row) => row.url.includes('nova'))).toHaveLength(2);

    await sql(
      `update public.webhook_deliveries set status = 'failed', created_at = now() - interval '31 days'
                where endpoint_id = $1`,
      [novaEndpoint!.id],
    );
    expect(await sql<{ pruned: number }>(`select public.prune_webhook_deliveries() as pruned`)).toEqual([
      { pruned: 2 },
    ]);
    await sql(`delete from public.webhook_endpoints where id = $1`, [novaEndpoint!.id]);
    await sql(`delete from public.webhook_deliveries where endpoint_id = $1 and payload = '{}'::jsonb`, [endpointId]);
  });

  it('knows private and local addresses, in every notation', () => {
    const local = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1', // the URL parser's form of [::ffff:127.0.0.1]
      '::ffff:a9fe:a9fe', // 169.254.169.254
      '0:0:0:0:0:ffff:a00:1', // 10.0.0.1
      '::7f00:1',
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '64:ff9b::7f00:1',
      '2001::1', // Teredo
      'not an address',
    ];
    for (const address of local) expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:5db8:d822', '2002:5db8:d822::1']) {
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
    }
  });
});

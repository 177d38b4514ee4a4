/**
 * Policies on the whole app (real request handler, the embedded backend in memory with the demo
 * data; ADR 069): an admin previews and publishes a new version (the Markdown rendered safely);
 * the public pages show the version in force and every earlier one; a buyer accepts the new
 * Terms before their next purchase and a seller the new Seller Policy before their next listing
 * change, with and without JavaScript; acceptances are recorded, exported, and the database's
 * rules hold through /rest/v1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLICY_MESSAGES } from '~/lib/policies';
import { getPage, postForm, signInThroughApp, startAppInProcess, type AppInProcess } from '../support/app-in-process';
import { anonClient } from '../support/clients';
import type { ContractTarget } from '../support/contract-target';

let app: AppInProcess;
let adminCookie: string;
let buyerCookie: string;
let sellerCookie: string;

beforeAll(async () => {
  app = await startAppInProcess();
  [adminCookie, buyerCookie, sellerCookie] = (await Promise.all(
    ['admin@demo.test', 'buyer@demo.test', 'seller@demo.test'].map((email) => signInThroughApp(app.origin, email)),
  )) as [string, string, string];
}, 120_000);
afterAll(() => app?.close());

async function sql<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
  return (await app.backend.db.query<Row>(text, params)).rows;
}

const get = (path: string, cookie: string | null) => getPage(app.origin, path, cookie);

const post = (path: string, cookie: string, fields: Record<string, string> | URLSearchParams) =>
  postForm(app.origin, path, cookie, fields);

const text = async (response: Response) => (await response.text()).replaceAll('<!-- -->', '');

const NEW_TERMS = `## Accounts

You are responsible for your account. You must be at least **18** years old.

<script>alert('x')</script> [click](javascript:alert(1)) [pricing](/pricing)
`;

describe('publishing', () => {
  it('a buyer and a seller cannot open the editor or publish, through the page or /rest/v1', async () => {
    for (const cookie of [buyerCookie, sellerCookie]) {
      expect((await get('/dashboard/policies', cookie)).status).toBe(403);
      const sent = await post('/dashboard/policies/terms', cookie, { intent: 'publish', body: 'x', summary: 'y' });
      expect(sent.status).toBe(403);
    }
    const api = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    await api.auth.signInWithPassword({ email: 'seller@demo.test', password: 'demo-password' });
    const forged = await api.from('policy_versions').insert({ document: 'terms', body: 'Mine now', summary: 'x' });
    expect(forged.error?.code).toBe('42501');
    const changed = await api.from('policy_versions').update({ body: 'Changed' }).eq('document', 'terms').select();
    expect(changed.data ?? []).toEqual([]);
    expect(await sql(`select version from public.policy_versions where document = 'terms'`)).toEqual([{ version: 1 }]);
  });

  it('an admin previews the Markdown rendered safely, then publishes version 2 with its summary', async () => {
    const preview = await post('/dashboard/policies/terms', adminCookie, {
      intent: 'preview',
      body: NEW_TERMS,
      summary: 'You must now be 18.',
    });
    expect(preview.status).toBe(200);
    const shown = await text(preview);
    expect(shown).toContain('<strong>18</strong>');
    expect(shown).toContain('&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;');
    expect(shown).not.toContain('href="javascript:');
    expect(await sql(`select version from public.policy_versions where document = 'terms'`)).toHaveLength(1);

    const empty = await post('/dashboard/policies/terms', adminCookie, {
      intent: 'publish',
      body: NEW_TERMS,
      summary: ' ',
    });
    expect(empty.status).toBe(400);
    expect(await text(empty)).toContain(POLICY_MESSAGES.summary);

    const published = await post('/dashboard/policies/terms', adminCookie, {
      intent: 'publish',
      body: NEW_TERMS,
      summary: 'You must now be 18.',
      version: '99',
    });
    expect(published.status).toBe(303);
    expect(published.headers.get('location')).toBe('/dashboard/policies');
    const [row] = await sql<{ version: number; author: string }>(
      `select v.version, u.email as author from public.policy_versions v join public.users u on u.id = v.published_by
        where v.document = 'terms' order by v.version desc limit 1`,
    );
    expect(row).toEqual({ version: 2, author: 'admin@demo.test' });

    const again = await post('/dashboard/policies/terms', adminCookie, {
      intent: 'publish',
      body: NEW_TERMS,
      summary: 'Same again',
    });
    expect(again.status).toBe(409);
  });

  it('the public page shows the version in force, and every earlier one at ?version=', async () => {
    const current = await text(await get('/terms', null));
    expect(current).toContain('Version 2, published');
    expect(current).toContain('<strong>18</strong>');
    expect(current).toContain('href="/terms?version=1"');
    const earlier = await text(await get('/terms?version=1', null));
    expect(earlier).toContain('This is an earlier version, no longer in force.');
    expect(earlier).toContain('You must be at least 16 years old.');
    for (const bad of ['3', '0', 'abc', '1e3', '-1']) {
      expect((await get(`/terms?version=${bad}`, null)).status, bad).toBe(404);
    }
    expect((await get('/seller-policy', null)).status).toBe(200);
    // With JavaScript, a link to a policy page asks for its data (`.data`).
    const asData = await get('/terms.data', null);
    expect(asData.status).toBe(200);
    expect(await asData.text()).toContain('You must now be 18.');
  });
});

describe('accepting before a purchase', () => {
  it.each([
    ['without JavaScript', false],
    ['with JavaScript', true],
  ])('a buyer is sent to accept the new Terms, %s; nothing is bought until they do', async (_, javascript) => {
    const [agent] = await sql<{ id: string }>(
      `select a.id from public.agents a where a.status = 'published'
          and a.seller_id <> (select id from public.users where email = 'buyer@demo.test')
          and not exists (select 1 from public.purchases p join public.users u on u.id = p.buyer_id
                           where p.agent_id = a.id and u.email = 'buyer@demo.test')
        order by a.created_at ${javascript ? 'desc' : 'asc'} limit 1`,
    );
    const checkout = `/agent/${agent!.id}/checkout`;
    const page = await get(checkout, buyerCookie);
    if (javascript) {
      // Once accepted (the run without JavaScript), the order summary opens.
      expect(page.status).toBe(200);
      return;
    }
    expect(page.status).toBe(302);
    const acceptHref = page.headers.get('location')!;
    expect(acceptHref).toBe(`/policies/accept?for=terms%2Cprivacy&returnTo=${encodeURIComponent(checkout)}`);
    const buy = await post(checkout, buyerCookie, { intent: 'buy', idempotencyKey: crypto.randomUUID(), price: '1' });
    expect(buy.status).toBe(302);
    expect(buy.headers.get('location')).toBe(acceptHref);

    const acceptPage = await text(await get(acceptHref, buyerCookie));
    expect(acceptPage).toContain('Terms of Service, version 2');
    expect(acceptPage).toContain('What changed: You must now be 18.');
    const unticked = await post(acceptHref, buyerCookie, { version: 'terms:2' });
    expect(unticked.status).toBe(400);
    expect(await text(unticked)).toContain(POLICY_MESSAGES.acceptRequired);

    const accepted = await post(acceptHref, buyerCookie, { version: 'terms:2', accept: 'on' });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe(checkout);
    const rows = await sql<{ document: string; version: number }>(
      `select a.document, a.version from public.policy_acceptances a join public.users u on u.id = a.user_id
        where u.email = 'buyer@demo.test' and a.document = 'terms' order by a.version`,
    );
    expect(rows).toEqual([
      { document: 'terms', version: 1 },
      { document: 'terms', version: 2 },
    ]);
    expect((await get(checkout, buyerCookie)).status).toBe(200);
  });

  it('the data export lists the versions the buyer accepted', async () => {
    const answer = await get('/profile/export', buyerCookie);
    const body = (await answer.json()) as { policy_acceptances: { document: string; version: number }[] };
    expect(body.policy_acceptances.map((row) => `${row.document}:${row.version}`)).toContain('terms:2');
  });
});

describe('accepting before a listing change', () => {
  it('a seller accepts a new Seller Policy before uploading or changing an agent', async () => {
    const published = await post('/dashboard/policies/seller', adminCookie, {
      intent: 'publish',
      body: '## Listing rules\n\nShip a working package, and answer buyers within a week.',
      summary: 'Answer buyers within a week.',
    });
    expect(published.status).toBe(303);
    const upload = await get('/dashboard/upload', sellerCookie);
    expect(upload.status).toBe(302);
    const acceptHref = upload.headers.get('location')!;
    expect(acceptHref).toContain('/policies/accept?for=terms%2Cprivacy%2Cseller');
    // With JavaScript the same, coming back to the page, not to its data.
    const uploadData = await (await get('/dashboard/upload.data', sellerCookie)).text();
    expect(uploadData).toContain('returnTo=%2Fdashboard%2Fupload');
    expect(uploadData).not.toContain('upload.data');

    const [agent] = await sql<{ id: string; status: string }>(
      `select id, status from public.agents where seller_id = (select id from public.users where email = 'seller@demo.test')
          and status = 'published' order by created_at limit 1`,
    );
    const unpublish = await fetch(`${app.origin}/dashboard/agents.data`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: app.origin, cookie: sellerCookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'unpublish', agentId: agent!.id }),
    });
    expect([202, 204, 302]).toContain(unpublish.status);
    expect(await sql('select status from public.agents where id = $1', [agent!.id])).toEqual([{ status: 'published' }]);

    // The page lists what is waiting: the Seller Policy and the Terms (accepted by no seller yet).
    const acceptPage = await text(await get(acceptHref, sellerCookie));
    expect(acceptPage).toContain('Seller Policy, version 2');
    const form = new URLSearchParams([
      ['version', 'seller:2'],
      ['version', 'terms:2'],
      ['accept', 'on'],
    ]);
    expect((await post(acceptHref, sellerCookie, form)).status).toBe(303);
    expect((await get('/dashboard/upload', sellerCookie)).status).toBe(200);
  });

  it('becoming a seller records the Seller Policy in force', async () => {
    const cookie = await signInThroughApp(app.origin, 'priya.shah@demo.test');
    const became = await post('/become-seller', cookie, {
      displayName: 'Priya Builds',
      responseTimeHours: '24',
      acceptTerms: 'on',
    });
    expect(became.status).toBe(303);
    const rows = await sql<{ version: number }>(
      `select a.version from public.policy_acceptances a join public.users u on u.id = a.user_id
        where u.email = 'priya.shah@demo.test' and a.document = 'seller'`,
    );
    expect(rows).toEqual([{ version: 2 }]);
  });
});

describe('the acceptances through /rest/v1', () => {
  it('a user records only their own acceptance, of now, and reads only their own', async () => {
    const api = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    await api.auth.signInWithPassword({ email: 'buyer@demo.test', password: 'demo-password' });
    const [seller] = await sql<{ id: string }>(`select id from public.users where email = 'seller@demo.test'`);
    const forged = await api.from('policy_acceptances').insert({ user_id: seller!.id, document: 'seller', version: 1 });
    expect(forged.error?.code).toBe('42501');
    const [buyer] = await sql<{ id: string }>(`select id from public.users where email = 'buyer@demo.test'`);
    const backdated = await api
      .from('policy_acceptances')
      .insert({ user_id: buyer!.id, document: 'seller', version: 1, accepted_at: '2000-01-01T00:00:00Z' });
    expect(backdated.error?.code).toBe('42501');
    const own = await api.from('policy_acceptances').select('user_id');
    expect(new Set((own.data ?? []).map((row) => row.user_id))).toEqual(new Set([buyer!.id]));
  });
});

/**
 * Platform settings on the whole app (real request handler, the embedded backend's Data API and
 * Auth API on the same origin, the demo data; ADR 065): an admin changes the fee, closes sign-up
 * and turns maintenance on through System Settings; everyone else is refused, through the page
 * and through /rest/v1; each change is audited; the pages and the APIs follow at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_SETTINGS_MESSAGES } from '~/schemas/platform-settings';
import { postForm, signInThroughApp, startAppInProcess, type AppInProcess } from '../support/app-in-process';
import { anonClient } from '../support/clients';
import type { ContractTarget } from '../support/contract-target';

let app: AppInProcess;
let adminCookie: string;
let buyerCookie: string;

beforeAll(async () => {
  app = await startAppInProcess();
  adminCookie = await signInThroughApp(app.origin, 'admin@demo.test');
  buyerCookie = await signInThroughApp(app.origin, 'buyer@demo.test');
}, 120_000);
afterAll(() => app?.close());

async function settingsRow() {
  const { rows } = await app.backend.db.query<{ fee: number; signups_open: boolean; maintenance_mode: boolean }>(
    'select platform_fee_percent::float8 as fee, signups_open, maintenance_mode from public.platform_settings',
  );
  return rows[0]!;
}

const post = (path: string, cookie: string | null, fields: Record<string, string>) =>
  postForm(app.origin, path, cookie, fields);

/** System Settings' form: the price ceiling and the upload limits as they are unless given. */
const save = (cookie: string, fields: Record<string, string>) =>
  post('/dashboard/system', cookie, {
    intent: 'save-settings',
    maxAgentPrice: '300',
    maxImageMb: '2',
    maxPackageMb: '10',
    ...fields,
  });

/** A page's HTML without React's text separators (`12.5<!-- -->%`). */
async function pageText(path: string, cookie?: string) {
  const response = await fetch(app.origin + path, { headers: cookie ? { cookie } : {} });
  return { status: response.status, html: (await response.text()).replaceAll('<!-- -->', '') };
}

describe('who changes the settings', () => {
  it('a buyer is refused by the page and by the Data API; nothing changes', async () => {
    const before = await settingsRow();
    expect((await save(buyerCookie, { platformFeePercent: '1' })).status).toBe(403);
    const api = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    await api.auth.signInWithPassword({ email: 'seller@demo.test', password: 'demo-password' });
    const { data } = await api
      .from('platform_settings')
      .update({ platform_fee_percent: 1 })
      .not('id', 'is', null)
      .select();
    expect(data ?? []).toEqual([]);
    expect(await settingsRow()).toEqual(before);
  });

  it('an admin gets a clear message for a fee out of range, and the form keeps what was typed', async () => {
    const response = await save(adminCookie, { platformFeePercent: '75', maintenanceMessage: 'kept' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(PLATFORM_SETTINGS_MESSAGES.fee);
    expect(html).toContain('kept');
    expect((await settingsRow()).fee).toBe(10);
  });
});

describe('an admin changes them, and the product follows', () => {
  beforeAll(async () => {
    const response = await save(adminCookie, { platformFeePercent: '12.5', maintenanceMessage: 'Back at noon.' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/system');
  });
  afterAll(async () => {
    await save(adminCookie, { platformFeePercent: '10', signupsOpen: 'on' });
  });

  it('saves them, stamped with who, and audits the change', async () => {
    expect(await settingsRow()).toEqual({ fee: 12.5, signups_open: false, maintenance_mode: false });
    const { rows } = await app.backend.db.query<{ email: string; username: string; details: Record<string, unknown> }>(
      `select u.email, u.username, l.details from public.audit_log l join public.users u on u.id = l.actor_id
        where l.action = 'settings.changed' order by l.created_at desc limit 1`,
    );
    expect(rows[0]!.email).toBe('admin@demo.test');
    expect(Object.keys(rows[0]!.details).toSorted()).toEqual([
      'maintenance_message',
      'platform_fee_percent',
      'signups_open',
    ]);
    const { html } = await pageText('/dashboard/system', adminCookie);
    expect(html).toContain(`UTC by ${rows[0]!.username}.`);
    expect(html).toContain(`${rows[0]!.username}:</span> Platform fee: 10% → 12.5%; Sign-up: open → closed`);
    expect(html).toMatch(/Last changed \d{4}-\d\d-\d\d \d\d:\d\d UTC by/);
  });

  it('shows the new fee on Pricing and Become a Seller', async () => {
    expect((await pageText('/pricing')).html).toContain('platform fee of 12.5% of each sale');
    expect((await pageText('/become-seller')).html).toContain('AgentMarket keeps 12.5% of each sale');
  });

  it('under a lowered ceiling, an agent priced above keeps its price; any other price above is a 400 beside the field', async () => {
    const sellerCookie = await signInThroughApp(app.origin, 'seller@demo.test');
    const { rows } = await app.backend.db.query<{
      id: string;
      name: string;
      description: string;
      category: string;
      price: string;
      thumbnail_url: string | null;
    }>(
      `select a.id, a.name, a.description, a.category, a.price::text as price, a.thumbnail_url
         from public.agents a join public.users u on u.id = a.seller_id
        where u.email = 'seller@demo.test' and a.status = 'published' and a.price > 100
        order by a.price limit 1`,
    );
    const agent = rows[0]!;
    expect((await save(adminCookie, { platformFeePercent: '12.5', maxAgentPrice: '100' })).status).toBe(303);
    const edit = (price: string) => {
      const form = new FormData();
      for (const [name, value] of Object.entries({
        intent: 'publish',
        name: agent.name,
        description: agent.description,
        category: agent.category,
        price,
        features: 'One feature',
        keep_thumbnail: agent.thumbnail_url ?? '',
      }))
        form.append(name, value);
      return fetch(`${app.origin}/dashboard/agents/${agent.id}/edit`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: app.origin, cookie: sellerCookie },
        body: form,
      });
    };
    const between = await edit('100.01');
    expect(between.status).toBe(400);
    expect(await between.text()).toContain(
      `The price must be a number from 0 to 100 (or its current ${Number(agent.price).toFixed(2)}) with at most two decimals`,
    );
    expect((await edit(agent.price)).status).toBe(303);
    const [after] = (
      await app.backend.db.query<{ price: string }>('select price::text as price from public.agents where id = $1', [
        agent.id,
      ])
    ).rows;
    expect(after!.price).toBe(agent.price);
    expect((await save(adminCookie, { platformFeePercent: '12.5', maxAgentPrice: '300' })).status).toBe(303);

    // Lowered behind the app's back (another process; this one reads its 5 s cache): the form
    // takes 250, the database refuses it, and the seller reads why beside the field.
    await app.backend.db.query('update public.platform_settings set max_agent_price = 50');
    const raced = await edit('250');
    expect(raced.status).toBe(400);
    expect(await raced.text()).toContain('The price must be a number from 0 to 50');
    expect((await save(adminCookie, { platformFeePercent: '12.5', maxAgentPrice: '300' })).status).toBe(303);
  });

  it('lowered upload limits reach the listing form’s hints and checks at once', async () => {
    const sellerCookie = await signInThroughApp(app.origin, 'seller@demo.test');
    expect((await save(adminCookie, { platformFeePercent: '12.5', maxImageMb: '1', maxPackageMb: '1' })).status).toBe(
      303,
    );
    const page = await pageText('/dashboard/upload', sellerCookie);
    expect(page.html).toContain('JPEG, PNG, GIF or WebP, at most 1 MB.');
    expect(page.html).toContain('at most 1 MB.');
    const draftId = page.html.match(/name="draft_id" value="([^"]+)"/)![1]!;
    const form = new FormData();
    for (const [name, value] of Object.entries({
      intent: 'draft',
      draft_id: draftId,
      name: 'Too Big',
      description: 'A package over the lowered limit.',
      category: 'Sales',
      price: '5',
    }))
      form.append(name, value);
    form.append('package', new File([new Uint8Array(1024 * 1024 + 10)], 'big.zip', { type: 'application/zip' }));
    const response = await fetch(`${app.origin}/dashboard/upload`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: app.origin, cookie: sellerCookie },
      body: form,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('The package file can be at most 1 MB.');
    expect((await save(adminCookie, { platformFeePercent: '12.5' })).status).toBe(303);
  });

  it('a raised price ceiling reaches the listing form and the database at once', async () => {
    const sellerCookie = await signInThroughApp(app.origin, 'seller@demo.test');
    expect((await pageText('/dashboard/upload', sellerCookie)).html).toContain(
      'From 0 (free) to 300, at most two decimals.',
    );
    expect((await save(adminCookie, { platformFeePercent: '12.5', maxAgentPrice: '1000' })).status).toBe(303);
    expect((await pageText('/dashboard/upload', sellerCookie)).html).toContain(
      'From 0 (free) to 1000, at most two decimals.',
    );
    const api = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    await api.auth.signInWithPassword({ email: 'seller@demo.test', password: 'demo-password' });
    const { data: own } = await api.from('agents').select('id').eq('status', 'published').limit(1).single();
    expect((await api.from('agents').update({ price: 999 }).eq('id', own!.id)).error).toBeNull();
    expect((await save(adminCookie, { platformFeePercent: '12.5', maxAgentPrice: '300' })).status).toBe(303);
    expect((await api.from('agents').update({ price: 998 }).eq('id', own!.id)).error?.code).toBe('23514');
    expect((await api.from('agents').update({ price: 19 }).eq('id', own!.id)).error).toBeNull();
  });

  it('refuses a sign-up through the form (403) and through the Auth API (422 signup_disabled)', async () => {
    const form = await post('/auth/sign-up', null, {
      email: 'closed-door@example.com',
      password: 'a-long-enough-password-1',
      username: 'closed_door',
    });
    expect(form.status).toBe(403);
    expect(await form.text()).toContain(PLATFORM_SETTINGS_MESSAGES.signUpClosed);
    const api = await fetch(`${app.origin}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: app.backend.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'closed-door@example.com', password: 'a-long-enough-password-1' }),
    });
    expect(api.status).toBe(422);
    expect(await api.json()).toMatchObject({ error_code: 'signup_disabled' });
    const { rows } = await app.backend.db.query(`select 1 from auth.users where email = 'closed-door@example.com'`);
    expect(rows).toEqual([]);
  });

  it('in maintenance: everyone browses with the notice, a buyer’s change is 503, an admin’s goes through, signing in works', async () => {
    const on = await save(adminCookie, {
      platformFeePercent: '12.5',
      maintenanceMode: 'on',
      maintenanceMessage: 'Back at noon.',
    });
    expect(on.status).toBe(303);
    const browse = await pageText('/marketplace');
    expect(browse.status).toBe(200);
    expect(browse.html).toContain('Maintenance: changes are paused. Back at noon.');

    const refused = await post('/become-seller', buyerCookie, { displayName: 'Paused', acceptTerms: 'on' });
    expect(refused.status).toBe(503);
    const body = await refused.text();
    expect(body).toContain('Down for maintenance');
    expect(body).toContain('Back at noon.');
    const { rows } = await app.backend.db.query<{ user_type: string }>(
      `select user_type from public.users where email = 'buyer@demo.test'`,
    );
    expect(rows[0]!.user_type).toBe('buyer');

    expect(await signInThroughApp(app.origin, 'seller@demo.test')).toContain('auth-token');
    // The admin's own change goes through: maintenance off again.
    const off = await save(adminCookie, { platformFeePercent: '12.5', maintenanceMessage: 'Back at noon.' });
    expect(off.status).toBe(303);
    expect((await settingsRow()).maintenance_mode).toBe(false);
  });
});

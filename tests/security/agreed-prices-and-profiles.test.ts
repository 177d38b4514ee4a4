/**
 * Prices the buyer agreed to, and what profiles show, attacked as a seller, a buyer and an
 * anonymous visitor on the whole app (real request handler, the embedded backend's Data API on
 * the same origin, the demo data):
 *
 *   bait-and-switch   a seller raises the price through /rest/v1 between the buyer's view of the
 *                     agent page and their Buy (with and without JavaScript): refused with the
 *                     new price, nothing charged; the page's own form then buys at the new price
 *   price ceiling     a price above the listing form's limit through /rest/v1: refused
 *   public_profiles   an anonymous read lists no admin, no buyer no page names, and of a private
 *                     profile nothing but its username
 *   review times      an author backdates their review through /rest/v1: ignored
 *   avatars           a picture from another site (or another user's upload) through /rest/v1:
 *                     refused; only the account's own upload path is taken
 *   agent pictures    a thumbnail or screenshot from another site or folder through /rest/v1:
 *                     refused; only an upload in the agent's own folder is taken
 *   names             a storefront or profile name that speaks as the platform ("AgentMarket
 *                     Official Support"), through /rest/v1 and through the app's forms: refused
 *   a form sent twice the same Upload form (one draft id) posted four times at once: one agent,
 *                     409 for the others as for any form sent again, and no picture left behind
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORITY_NAME_MESSAGE } from '~/lib/auth-rules';
import { PROFILE_MESSAGES } from '~/schemas/profile';
import { signInThroughApp, startAppInProcess, type AppInProcess } from '../support/app-in-process';
import { anonClient } from '../support/clients';
import type { ContractTarget } from '../support/contract-target';
import { recordTally } from '../support/security-tally';

/** The demo's price ceiling (public.platform_settings' default, System Settings). */
const MAX_PRICE = 300;

const DEMO_SELLER = '00000000-0000-4000-8000-000000000002';
const DEMO_ADMIN = '00000000-0000-4000-8000-000000000003';

let app: AppInProcess;
let seller: SupabaseClient;
let buyerCookie: string;
let buyerId: string;

/** A Data API client on the app's own origin, signed out. */
const anonymous = () => anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);

/** A Data API client signed in as a demo account, on the app's own origin. */
async function apiAs(email: string): Promise<SupabaseClient> {
  const client = anonymous();
  const { error } = await client.auth.signInWithPassword({ email, password: 'demo-password' });
  if (error) throw error;
  return client;
}

async function sql<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
  return (await app.backend.db.query<Row>(text, params)).rows;
}

beforeAll(async () => {
  app = await startAppInProcess();
  seller = await apiAs('seller@demo.test');
  buyerCookie = await signInThroughApp(app.origin, 'buyer@demo.test');
  buyerId = (await sql<{ id: string }>(`select id from public.users where email = 'buyer@demo.test'`))[0]!.id;
}, 120_000);
afterAll(() => app?.close());

/** A published agent of demo_seller that the demo buyer holds no purchase of. */
async function agentOnSale(skip: string[] = []): Promise<string> {
  const rows = await sql<{ id: string }>(
    `select a.id from public.agents a
      where a.seller_id = $1 and a.status = 'published' and not (a.id = any($3::uuid[]))
        and not exists (select 1 from public.purchases p where p.agent_id = a.id and p.buyer_id = $2)
      order by a.created_at limit 1`,
    [DEMO_SELLER, buyerId, skip],
  );
  return rows[0]!.id;
}

/** The order summary as the demo buyer sees it, and its form's fields (Confirm purchase). */
async function buyForm(agentId: string) {
  const response = await fetch(`${app.origin}/agent/${agentId}/checkout`, { headers: { cookie: buyerCookie } });
  const html = await response.text();
  const field = (name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1];
  return { html, idempotencyKey: field('idempotencyKey')!, price: field('price')! };
}

/** Confirm purchase posted as the browser sends it: a document POST, or React Router's data request (JavaScript on). */
function postBuy(agentId: string, fields: Record<string, string>, javascript: boolean) {
  return fetch(`${app.origin}/agent/${agentId}/checkout${javascript ? '.data' : ''}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: app.origin, cookie: buyerCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'buy', ...fields }),
  });
}

const purchasesOf = (agentId: string) =>
  sql<{ amount: string; status: string }>(
    `select amount, status from public.purchases where agent_id = $1 and buyer_id = $2`,
    [agentId, buyerId],
  );

describe('bait-and-switch', () => {
  it.each([
    ['without JavaScript', false],
    ['with JavaScript', true],
  ])('a price raised between the view and the Buy is refused, %s; nothing is charged', async (_, javascript) => {
    const failures: string[] = [];
    const skip = javascript ? [await agentOnSale()] : [];
    const agentId = await agentOnSale(skip);
    await sql(`update public.agents set price = 1 where id = $1`, [agentId]);
    const shown = await buyForm(agentId);
    expect(shown.price).toBe('1.00');

    // The seller raises the price through the Data API while the buyer reads the page.
    const raised = await seller.from('agents').update({ price: 249.99 }).eq('id', agentId).select('price');
    expect(raised.error).toBeNull();

    const answer = await postBuy(agentId, { idempotencyKey: shown.idempotencyKey, price: shown.price }, javascript);
    const body = await answer.text();
    if (answer.status !== 409) failures.push(`Buy answered ${answer.status}, not 409`);
    if (!body.includes('The price of this agent is now $249.99, not the $1.00 you were shown. Nothing was charged.')) {
      failures.push('the refusal does not name the new price');
    }
    // Without JavaScript the answer is the summary itself, with the new price in its form.
    if (!javascript && !body.includes('name="price" value="249.99"'))
      failures.push('the page does not show the new price');
    if ((await purchasesOf(agentId)).length !== 0) failures.push('a purchase was recorded');
    recordTally({
      check: `Bait-and-switch (${javascript ? 'JavaScript' : 'no JavaScript'})`,
      counts: 'purchases at a price the buyer was not shown, and refusals without the new price',
      cases: 1,
      failures,
    });
    expect(failures).toEqual([]);

    // The buyer, shown the new price, buys at it.
    const again = await buyForm(agentId);
    expect(again.price).toBe('249.99');
    const bought = await postBuy(agentId, { idempotencyKey: again.idempotencyKey, price: again.price }, false);
    expect(bought.status).toBe(303);
    expect(await purchasesOf(agentId)).toEqual([{ amount: '249.99', status: 'completed' }]);
  });

  it('a forged lower price is refused too, and nothing is charged', async () => {
    const agentId = await agentOnSale();
    const shown = await buyForm(agentId);
    const answer = await postBuy(agentId, { idempotencyKey: shown.idempotencyKey, price: '0.01' }, false);
    expect(answer.status).toBe(409);
    expect(await purchasesOf(agentId)).toEqual([]);
    // A form without the price (a page from before it carried one) is refused as expired.
    const stale = await postBuy(agentId, { idempotencyKey: shown.idempotencyKey }, false);
    expect(stale.status).toBe(400);
    expect(await purchasesOf(agentId)).toEqual([]);
  });
});

describe('price ceiling', () => {
  it(`refuses a price above the listing form's ${MAX_PRICE} through the Data API`, async () => {
    const agentId = await agentOnSale();
    const tried = [99_999_999.99, 899.99, MAX_PRICE + 0.01];
    const failures: string[] = [];
    for (const price of tried) {
      const { error } = await seller.from('agents').update({ price }).eq('id', agentId);
      if (error?.code !== '23514') failures.push(`price ${price}: ${error?.code ?? 'accepted'}`);
    }
    const created = await seller
      .from('agents')
      .insert({ name: 'Ceiling probe', description: 'd', price: 899.99, category: 'Sales', seller_id: DEMO_SELLER })
      .select('id');
    if (created.error?.code !== '23514') failures.push(`a new agent at 899.99: ${created.error?.code ?? 'accepted'}`);
    recordTally({
      check: 'Price ceiling',
      counts: 'prices above the listing form’s limit accepted through the Data API',
      cases: tried.length + 1,
      failures,
    });
    expect(failures).toEqual([]);
    expect((await seller.from('agents').update({ price: MAX_PRICE }).eq('id', agentId)).error).toBeNull();
  });
});

describe('public_profiles', () => {
  it('shows an anonymous caller only the accounts public pages name, and only what their privacy allows', async () => {
    // A review author who made their profile private; a buyer who wrote no review.
    const [author] = await sql<{ id: string }>(
      `select r.buyer_id as id from public.reviews r join public.users u on u.id = r.buyer_id
        where u.user_type = 'buyer' order by r.created_at limit 1`,
    );
    await sql(`update public.user_settings set profile_visibility = 'private' where user_id = $1`, [author!.id]);
    const signedUp = await anonymous().auth.signUp({
      email: `silent-${crypto.randomUUID().slice(0, 8)}@example.com`,
      password: 'a-long-enough-password',
    });
    const silent = signedUp.data.user;
    expect(silent?.id).toBeTruthy();
    const { data, error } = await anonymous().from('public_profiles').select('*');
    expect(error).toBeNull();
    const rows = data as Record<string, unknown>[];
    const failures: string[] = [];
    const ids = new Set(rows.map((row) => row.id));
    if (ids.has(DEMO_ADMIN)) failures.push('the admin is listed');
    if (ids.has(silent!.id)) failures.push('a buyer without reviews is listed');
    if (rows.some((row) => row.user_type !== null && row.user_type !== 'seller'))
      failures.push('a role other than seller');
    for (const row of rows.filter((candidate) => candidate.visibility !== 'public')) {
      const shown = Object.entries(row).filter(
        ([column, value]) =>
          !['id', 'username', 'user_type', 'visibility', 'visible'].includes(column) &&
          value !== null &&
          value !== false,
      );
      if (shown.length) failures.push(`${row.username} (${row.visibility}) shows ${shown.map(([c]) => c).join(', ')}`);
    }
    const privateAuthor = rows.find((row) => row.id === author!.id);
    if (!privateAuthor) failures.push('the review author is not listed (their review names them)');
    recordTally({
      check: 'Public profiles',
      counts: 'accounts no public page names, and fields a profile’s privacy hides, shown to anonymous callers',
      cases: rows.length,
      failures,
    });
    expect(failures).toEqual([]);
  });
});

describe('names that speak as the platform', () => {
  const IMPERSONATING = 'AgentMarket Official Support';

  it('a seller cannot rename their storefront to speak as the platform through the Data API', async () => {
    const [me] = await sql<{ display_name: string | null }>(`select display_name from public.users where id = $1`, [
      DEMO_SELLER,
    ]);
    const { error } = await seller.from('users').update({ display_name: IMPERSONATING }).eq('id', DEMO_SELLER);
    expect(error?.code).toBe('23514');
    const [after] = await sql<{ display_name: string | null }>(`select display_name from public.users where id = $1`, [
      DEMO_SELLER,
    ]);
    expect(after).toEqual(me);
  });

  it('the profile and Become a Seller forms refuse such names with a message, and change nothing', async () => {
    const post = (path: string, fields: Record<string, string>) =>
      fetch(`${app.origin}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: app.origin, cookie: buyerCookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
    const [before] = await sql(`select username, first_name, last_name, user_type from public.users where id = $1`, [
      buyerId,
    ]);
    const profile = await post('/profile', {
      intent: 'profile',
      username: (before as { username: string }).username,
      first_name: 'Agent',
      last_name: 'Market',
    });
    expect(profile.status).toBe(400);
    expect(await profile.text()).toContain(AUTHORITY_NAME_MESSAGE);
    const becoming = await post('/become-seller', {
      displayName: 'Official Store',
      responseTimeHours: '24',
      acceptTerms: 'on',
    });
    expect(becoming.status).toBe(400);
    expect(await becoming.text()).toContain(AUTHORITY_NAME_MESSAGE);
    const [after] = await sql(`select username, first_name, last_name, user_type from public.users where id = $1`, [
      buyerId,
    ]);
    expect(after).toEqual(before);
  });

  it('a username cannot speak as the platform either, through the Data API or the profile form', async () => {
    const [me] = await sql<{ username: string }>(`select username from public.users where id = $1`, [DEMO_SELLER]);
    const failures: string[] = [];
    for (const name of [
      'AgentMarket',
      'Agent_Market',
      'AgentMarketHQ',
      'Admins',
      'Verified',
      'Moderators',
      'Staff_Picks',
      'STAFFPICKS',
      'adminteam',
      'Support_Team',
    ]) {
      const { error } = await seller.from('users').update({ username: name }).eq('id', DEMO_SELLER);
      if (error?.code !== '23514') failures.push(`${name} through /rest/v1: ${error?.code ?? 'accepted'}`);
      const form = await fetch(`${app.origin}/profile`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: app.origin, cookie: buyerCookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'profile', username: name }),
      });
      if (form.status !== 409 || !(await form.text()).includes(PROFILE_MESSAGES.usernameTaken))
        failures.push(`${name} through the profile form: ${form.status}`);
    }
    const [after] = await sql<{ username: string }>(`select username from public.users where id = $1`, [DEMO_SELLER]);
    expect(after).toEqual(me);
    const buyerName = await sql<{ username: string }>(`select username from public.users where id = $1`, [buyerId]);
    expect(buyerName[0]!.username).not.toMatch(/agent|admin|verified|moderator|staff/i);
    recordTally({ check: 'Names', counts: 'usernames that speak as the platform', cases: 20, failures });
    expect(failures).toEqual([]);
  });
});

describe('the names rule under a long name', () => {
  it('answers a name of 300,000 characters at once, through the API and in an update, instead of holding the database', async () => {
    const long = 'Ad '.repeat(100_000);
    const failures: string[] = [];
    for (const fn of ['claims_platform_authority', 'names_the_platform', 'is_reserved_username'] as const) {
      const args = fn === 'is_reserved_username' ? { name: long } : { value: long };
      const { data, error } = await anonymous().rpc(fn, args as never);
      if (error || data !== true) failures.push(`${fn}: ${error?.code ?? JSON.stringify(data)}`);
    }
    const readings = await anonymous().rpc('name_readings', { value: long });
    if (readings.error || (readings.data as unknown[]).length !== 0)
      failures.push(`name_readings: ${readings.error?.code ?? 'read it'}`);
    const { error } = await seller.from('users').update({ first_name: long }).eq('id', DEMO_SELLER);
    if (error?.code !== '23514') failures.push(`a long first name: ${error?.code ?? 'stored'}`);
    recordTally({
      check: 'Long names',
      counts: 'names too long to read that held the database or were stored',
      cases: 5,
      failures,
    });
    expect(failures).toEqual([]);
  });
});

describe('review times', () => {
  it('an author cannot backdate their review or change when it was written', async () => {
    const buyer = await apiAs('buyer@demo.test');
    const [review] = await sql<{ id: string; created_at: string }>(
      `select id, created_at::text from public.reviews where buyer_id = $1 limit 1`,
      [buyerId],
    );
    const patched = await buyer.from('reviews').update({ created_at: '2001-01-01T00:00:00Z' }).eq('id', review!.id);
    const [after] = await sql<{ created_at: string }>(`select created_at::text from public.reviews where id = $1`, [
      review!.id,
    ]);
    const failures: string[] = [];
    if (!patched.error && after!.created_at !== review!.created_at)
      failures.push(`created_at became ${after!.created_at}`);

    // A new review sent with a date in the past is written now.
    const [owned] = await sql<{ agent_id: string }>(
      `select p.agent_id from public.purchases p where p.buyer_id = $1 and p.status = 'completed'
         and not exists (select 1 from public.reviews r where r.agent_id = p.agent_id and r.buyer_id = p.buyer_id) limit 1`,
      [buyerId],
    );
    const inserted = await buyer
      .from('reviews')
      .insert({ agent_id: owned!.agent_id, buyer_id: buyerId, rating: 5, created_at: '2001-01-01T00:00:00Z' })
      .select('created_at')
      .single();
    if (inserted.error) failures.push(`a new review was refused: ${inserted.error.message}`);
    else if (Date.parse(inserted.data.created_at) < Date.now() - 60_000)
      failures.push(`a new review is dated ${inserted.data.created_at}`);
    recordTally({ check: 'Review times', counts: 'review dates set by their author', cases: 2, failures });
    expect(failures).toEqual([]);
  });
});

describe('avatars', () => {
  it('a profile picture is only the account’s own upload', async () => {
    const buyer = await apiAs('buyer@demo.test');
    const refused = [
      'https://evil.example/pixel.png',
      'http://127.0.0.1:9/pixel.gif',
      '/auth/v1/pixel.png',
      `/storage/v1/object/public/avatars/${DEMO_SELLER}/someone-else.png`,
      `/storage/v1/object/public/avatars/${buyerId}/../../agent-images/x.png`,
    ];
    const failures: string[] = [];
    for (const url of refused) {
      const { error } = await buyer.from('users').update({ profile_image_url: url }).eq('id', buyerId);
      if (error?.code !== '23514') failures.push(`${url}: ${error?.code ?? 'accepted'}`);
    }
    recordTally({
      check: 'Avatars',
      counts: 'profile pictures from other sites or other users accepted',
      cases: refused.length,
      failures,
    });
    expect(failures).toEqual([]);
    const own = `/storage/v1/object/public/avatars/${buyerId}/${crypto.randomUUID()}.png`;
    expect((await buyer.from('users').update({ profile_image_url: own }).eq('id', buyerId)).error).toBeNull();
    expect((await buyer.from('users').update({ profile_image_url: null }).eq('id', buyerId)).error).toBeNull();
  });
});

describe('agent pictures', () => {
  it('a thumbnail or screenshot is only an upload in the agent’s own folder; pictures it has stay', async () => {
    const agentId = await agentOnSale();
    const [before] = await sql<{ thumbnail_url: string | null; images: string[] }>(
      'select thumbnail_url, images from public.agents where id = $1',
      [agentId],
    );
    const file = `${crypto.randomUUID()}.png`;
    const refused = [
      'https://evil.example/pixel.png',
      'http://127.0.0.1:9/pixel.gif',
      '/thumbnails/../auth/v1/x.svg',
      `https://evil.example/storage/v1/object/public/agent-images/${DEMO_SELLER}/${agentId}/${file}`,
      `/storage/v1/object/public/agent-images/${DEMO_ADMIN}/${agentId}/${file}`,
      `/storage/v1/object/public/agent-images/${DEMO_SELLER}/${crypto.randomUUID()}/${file}`,
      `/storage/v1/object/public/agent-images/${DEMO_SELLER}/${agentId}/../${file}`,
      `/storage/v1/object/public/avatars/${DEMO_SELLER}/${file}`,
    ];
    const failures: string[] = [];
    for (const url of refused) {
      for (const change of [{ thumbnail_url: url }, { images: [...before!.images, url] }]) {
        const { error } = await seller.from('agents').update(change).eq('id', agentId);
        if (error?.code !== '23514') failures.push(`${Object.keys(change)[0]} ${url}: ${error?.code ?? 'accepted'}`);
      }
      const { error } = await seller.from('agents').insert({
        seller_id: DEMO_SELLER,
        name: 'Pixel',
        description: 'x',
        category: 'Productivity',
        price: 1,
        thumbnail_url: url,
      });
      if (error?.code !== '23514') failures.push(`insert ${url}: ${error?.code ?? 'accepted'}`);
    }
    recordTally({
      check: 'Agent pictures',
      counts: 'thumbnails and screenshots from other sites or folders accepted',
      cases: refused.length * 3,
      failures,
    });
    expect(failures).toEqual([]);
    const [unchanged] = await sql('select thumbnail_url, images from public.agents where id = $1', [agentId]);
    expect(unchanged).toEqual(before);

    // Its own upload path is taken, and the demo artwork it already had stays beside it.
    const own = `/storage/v1/object/public/agent-images/${DEMO_SELLER}/${agentId}/${file}`;
    const kept = await seller
      .from('agents')
      .update({ thumbnail_url: own, images: [...before!.images, own], name: 'Renamed with its pictures' })
      .eq('id', agentId);
    expect(kept.error).toBeNull();
    await sql('update public.agents set thumbnail_url = $2, images = $3, name = name where id = $1', [
      agentId,
      before!.thumbnail_url,
      before!.images,
    ]);
  });
});

describe('the same Upload form sent twice at once', () => {
  it('makes one agent, answers the others 409, and leaves none of their pictures behind', async () => {
    const sellerCookie = await signInThroughApp(app.origin, 'seller@demo.test');
    const draftId = crypto.randomUUID();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(64).fill(7)]);
    const post = (copy: number) => {
      const form = new FormData();
      form.set('name', `Twice Sent ${copy}`);
      form.set('description', 'The same Upload form, sent again before the first answer came.');
      form.set('category', 'Marketing');
      form.set('price', '1.00');
      form.set('intent', 'draft');
      form.set('draft_id', draftId);
      form.set('thumbnail', new File([png], 'thumbnail.png', { type: 'image/png' }));
      return fetch(`${app.origin}/dashboard/upload`, {
        method: 'POST',
        headers: { origin: app.origin, cookie: sellerCookie },
        body: form,
        redirect: 'manual',
      });
    };
    const answers = await Promise.all([1, 2, 3, 4].map(post));
    const statuses = answers.map((answer) => answer.status).sort();
    const agents = await sql<{ thumbnail_url: string }>('select thumbnail_url from public.agents where id = $1', [
      draftId,
    ]);
    const pictures = await sql<{ name: string }>(
      `select name from storage.objects where bucket_id = 'agent-images' and name like $1`,
      [`${DEMO_SELLER}/${draftId}/%`],
    );
    expect(statuses).toEqual([303, 409, 409, 409]);
    expect(agents).toHaveLength(1);
    expect(pictures.map((picture) => picture.name)).toEqual([agents[0]!.thumbnail_url.split('/agent-images/')[1]]);
  });
});

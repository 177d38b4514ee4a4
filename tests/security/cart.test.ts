/**
 * The cart on the whole app (real request handler, the embedded backend in memory with the demo
 * data, the test-mode payment provider; ADR 072): a visitor's cart joins the account's on sign-in;
 * checkout is one order (one payment, one purchase per agent, one invoice with a line each) at the
 * member's price; a line that cannot be bought, a changed total or a declined card charges nothing
 * and keeps the cart; the same checkout again, or twenty at once, is one order; the Data API takes
 * only a buyer's own rows of a published agent of another seller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cookieHeader,
  getPage,
  postForm,
  signInThroughApp,
  startAppInProcess,
  type AppInProcess,
} from '../support/app-in-process';
import { anonClient } from '../support/clients';
import type { ContractTarget } from '../support/contract-target';

let app: AppInProcess;

async function sql<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
  return (await app.backend.db.query<Row>(text, params)).rows;
}

beforeAll(async () => {
  app = await startAppInProcess();
}, 120_000);
afterAll(() => app?.close());

const get = (path: string, cookie: string | null) => getPage(app.origin, path, cookie);

const post = (path: string, cookie: string | null, fields: Record<string, string>) =>
  postForm(app.origin, path, cookie, fields);

/** Published agents of other sellers that `email` has not bought, with their prices. */
async function unownedAgents(email: string, count: number) {
  return sql<{ id: string; name: string; price: string }>(
    `select a.id, a.name, a.price::text from public.agents a
      where a.status = 'published'
        and a.seller_id <> (select id from public.users where email = $1)
        and not exists (select 1 from public.purchases p
          where p.agent_id = a.id and p.buyer_id = (select id from public.users where email = $1))
      order by a.created_at limit $2`,
    [email, count],
  );
}

const userId = async (email: string) =>
  (await sql<{ id: string }>('select id from public.users where email = $1', [email]))[0]!.id;

/** The checkout form's fields as the cart page renders them. */
async function checkoutFields(cookie: string) {
  const html = await (await get('/cart', cookie)).text();
  const key = html.match(/name="idempotencyKey" value="([^"]+)"/)?.[1];
  const total = html.match(/name="total" value="([^"]+)"/)?.[1];
  const lines = html.match(/name="lines" value="([^"]+)"/)?.[1];
  return { html, idempotencyKey: key!, total: total!, lines: lines! };
}

const cents = (price: string) => Math.round(Number(price) * 100);

describe('a visitor’s cart', () => {
  it('lives in a cookie, and joins the account’s cart on the first page after sign-in', async () => {
    const [first, second] = await unownedAgents('alex.rivera@demo.test', 2);
    const added = await post('/cart', null, { intent: 'add', agentId: first!.id, returnTo: `/agent/${first!.id}` });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`/agent/${first!.id}`);
    let guest = cookieHeader(added);
    const again = await post('/cart', guest, { intent: 'add', agentId: second!.id, returnTo: '//evil.test/x' });
    expect(again.headers.get('location')).toBe('/cart');
    guest = cookieHeader(again, guest);
    const page = await (await get('/cart', guest)).text();
    expect(page).toContain(first!.name);
    expect(page).toContain(second!.name);
    expect(page).toContain('Sign in to check out');

    // Checking out signed out is the sign-in first.
    const checkout = await post('/cart', guest, {
      intent: 'checkout',
      idempotencyKey: crypto.randomUUID(),
      total: '1.00',
      lines: `${first!.id}:100`,
    });
    expect(checkout.status).toBe(302);
    expect(checkout.headers.get('location')).toContain('auth=sign-in');

    const session = await signInThroughApp(app.origin, 'alex.rivera@demo.test');
    const amCart = guest.split('; ').find((part) => part.startsWith('am_cart='))!;
    // The first page after sign-in already shows the joined cart (the join runs before its loaders).
    const landed = await get('/cart', `${session}; ${amCart}`);
    expect(landed.headers.get('set-cookie')).toMatch(/am_cart=;|am_cart=[^;]*; Max-Age=0/);
    const joined = await landed.text();
    expect(joined).toContain(first!.name);
    expect(joined).toContain(second!.name);
    const rows = await sql<{ agent_id: string }>(
      'select agent_id from public.cart_items where user_id = $1 order by added_at',
      [await userId('alex.rivera@demo.test')],
    );
    expect(rows.map((row) => row.agent_id).sort()).toEqual([first!.id, second!.id].sort());
  });

  it('refuses a forged or unknown agent with a message, and never a 500', async () => {
    expect((await post('/cart', null, { intent: 'add', agentId: 'nope' })).status).toBe(400);
    const unknown = await post('/cart', null, { intent: 'add', agentId: '00000000-0000-4000-8000-00000000dead' });
    expect(unknown.status).toBe(303);
    expect(unknown.headers.get('set-cookie') ?? '').not.toContain('am_cart=');
    const forgedCookie = await get('/cart', 'am_cart=not-json');
    expect(forgedCookie.status).toBe(200);
  });
});

describe('checkout', () => {
  it('buys the whole cart as one order: one payment, a purchase per agent, one invoice with a line each', async () => {
    const email = 'priya.shah@demo.test'; // Premium: 10 % off each line
    const cookie = await signInThroughApp(app.origin, email);
    const agents = await unownedAgents(email, 3);
    for (const agent of agents) {
      expect((await post('/cart', cookie, { intent: 'add', agentId: agent.id })).status).toBe(303);
    }
    const { html, idempotencyKey, total, lines } = await checkoutFields(cookie);
    expect(html).toMatch(/Member discount \((<!-- -->)?10(<!-- -->)?%\)/);
    const expected = agents.reduce((sum, agent) => sum + cents(agent.price) - Math.round(cents(agent.price) * 0.1), 0);
    expect(cents(total)).toBe(expected);

    const bought = await post('/cart', cookie, { intent: 'checkout', idempotencyKey, total, lines });
    expect(bought.status).toBe(303);
    expect(bought.headers.get('location')).toBe('/dashboard/collection');
    const buyer = await userId(email);
    const orders = await sql<{ id: string; status: string; amount: string; payment_intent_id: string }>(
      'select id, status, amount::text, payment_intent_id from public.orders where buyer_id = $1',
      [buyer],
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'completed' });
    expect(cents(orders[0]!.amount)).toBe(expected);
    const purchases = await sql<{ agent_id: string; status: string; payment_intent_id: string }>(
      'select agent_id, status, payment_intent_id from public.purchases where order_id = $1',
      [orders[0]!.id],
    );
    expect(purchases.map((row) => row.agent_id).sort()).toEqual(agents.map((agent) => agent.id).sort());
    expect(new Set(purchases.map((row) => `${row.status} ${row.payment_intent_id}`))).toEqual(
      new Set([`completed ${orders[0]!.payment_intent_id}`]),
    );
    expect(await sql('select 1 from public.cart_items where user_id = $1', [buyer])).toEqual([]);

    // Billing: one row, one invoice with a line per agent.
    const billing = await (await get('/dashboard/billing', cookie)).text();
    expect(billing).toContain('AI agent order - 3 agents');
    const invoice = await (await get(`/dashboard/billing/invoices/${orders[0]!.id}`, cookie)).text();
    for (const agent of agents) expect(invoice).toContain(`AI agent: ${agent.name}`);

    // The same submission again is the same order; nothing more is charged.
    const replay = await post('/cart', cookie, { intent: 'checkout', idempotencyKey, total, lines });
    expect(replay.status).toBe(303);
    expect(await sql('select id from public.orders where buyer_id = $1', [buyer])).toHaveLength(1);

    // One line refunded by its seller: that purchase alone, at its share.
    const [line] = await sql<{ id: string }>('select id from public.purchases where order_id = $1 limit 1', [
      orders[0]!.id,
    ]);
    const adminCookie = await signInThroughApp(app.origin, 'admin@demo.test');
    const refund = await post(`/dashboard/disputes?refund=${line!.id}`, adminCookie, {
      intent: 'refund',
      purchaseId: line!.id,
      reason: 'Not as described',
    });
    expect(refund.status).toBe(303);
    const statuses = await sql<{ status: string }>(
      'select status from public.purchases where order_id = $1 order by status',
      [orders[0]!.id],
    );
    expect(statuses.map((row) => row.status)).toEqual(['completed', 'completed', 'refunded']);
    expect(await (await get('/dashboard/billing', cookie)).text()).toContain('AI agent order - 3 agents, 1 refunded');
  });

  it('refuses lines at other prices than shown, even at the same total, and an order the database would not take', async () => {
    const email = 'liam.obrien@demo.test';
    const cookie = await signInThroughApp(app.origin, email);
    const [one, two] = await unownedAgents(email, 2);
    await sql('update public.agents set price = 50 where id = $1', [one!.id]);
    await sql('update public.agents set price = 70 where id = $1', [two!.id]);
    for (const agent of [one!, two!]) await post('/cart', cookie, { intent: 'add', agentId: agent.id });
    const shown = await checkoutFields(cookie);
    expect(shown.total).toBe('120.00');
    // The sellers swap the two prices: the same total, other lines.
    await sql('update public.agents set price = 70 where id = $1', [one!.id]);
    await sql('update public.agents set price = 50 where id = $1', [two!.id]);
    const swapped = await post('/cart', cookie, { intent: 'checkout', ...shown });
    expect(swapped.status).toBe(409);
    expect(await swapped.text()).toContain('Nothing was charged.');
    const buyer = await userId(email);
    expect(await sql('select 1 from public.orders where buyer_id = $1', [buyer])).toEqual([]);

    // The database judges each line of an order as a single purchase: not at a made-up price.
    const service = app.backend.serviceRoleKey;
    const forged = await fetch(`${app.origin}/rest/v1/rpc/create_order`, {
      method: 'POST',
      headers: { apikey: service, authorization: `Bearer ${service}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        buyer,
        order_key: crypto.randomUUID(),
        order_provider: 'test',
        order_method: '',
        order_discount_percent: 0,
        lines: [{ agent_id: one!.id, list_price: 0.01, discount_amount: 0, amount: 0.01 }],
      }),
    });
    expect(forged.status).toBe(400);
    expect(await sql('select 1 from public.orders where buyer_id = $1', [buyer])).toEqual([]);
  });

  it('charges nothing while a line cannot be bought, says why beside it, and keeps the cart', async () => {
    const email = 'buyer@demo.test';
    const cookie = await signInThroughApp(app.origin, email);
    const buyer = await userId(email);
    const [fresh] = await unownedAgents(email, 1);
    const [owned] = await sql<{ agent_id: string }>(
      `select agent_id from public.purchases where buyer_id = $1 and status = 'completed' limit 1`,
      [buyer],
    );
    await post('/cart', cookie, { intent: 'add', agentId: fresh!.id });
    // Owned already: refused at the door, so put it in as it would be after a purchase elsewhere.
    const refused = await post('/cart', cookie, { intent: 'add', agentId: owned!.agent_id, returnTo: '/cart' });
    expect(refused.status).toBe(303);
    await sql('insert into public.cart_items (user_id, agent_id) values ($1, $2)', [buyer, owned!.agent_id]);

    const { html, idempotencyKey, total, lines } = await checkoutFields(cookie);
    expect(html).toContain('Already in your collection.');
    const answer = await post('/cart', cookie, { intent: 'checkout', idempotencyKey, total, lines });
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('Some agents in your cart cannot be bought. Nothing was charged.');
    expect(await sql('select 1 from public.orders where buyer_id = $1', [buyer])).toEqual([]);

    await post('/cart', cookie, { intent: 'remove', agentId: owned!.agent_id });
    // A total other than the one shown: refused with the new one.
    const shown = await checkoutFields(cookie);
    const changed = await post('/cart', cookie, {
      intent: 'checkout',
      idempotencyKey: crypto.randomUUID(),
      total: '0.01',
      lines: shown.lines,
    });
    expect(changed.status).toBe(409);
    expect(await changed.text()).toContain('not the $0.01 you were shown. Nothing was charged.');
    expect(await sql('select 1 from public.orders where buyer_id = $1', [buyer])).toEqual([]);
    expect(await sql('select 1 from public.cart_items where user_id = $1', [buyer])).toHaveLength(1);
  });

  it('a declined card charges nothing and keeps the cart', async () => {
    const email = 'hana.kim@demo.test';
    const buyer = await userId(email);
    await sql('update public.payment_methods set is_default = false where user_id = $1', [buyer]);
    await sql(
      `insert into public.payment_methods (user_id, provider, provider_method_id, brand, last4, exp_month, exp_year, is_default)
        values ($1, 'test', 'pm_test_0341_declines', 'Visa', '0341', 12, 2099, true)`,
      [buyer],
    );
    const cookie = await signInThroughApp(app.origin, email);
    const agents = await unownedAgents(email, 2);
    for (const agent of agents) await post('/cart', cookie, { intent: 'add', agentId: agent.id });
    const { idempotencyKey, total, lines } = await checkoutFields(cookie);
    const declined = await post('/cart', cookie, { intent: 'checkout', idempotencyKey, total, lines });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined. Nothing was charged.');
    const [order] = await sql<{ status: string }>('select status from public.orders where buyer_id = $1', [buyer]);
    expect(order?.status).toBe('failed');
    expect(
      await sql(
        `select 1 from public.purchases where buyer_id = $1 and status in ('pending', 'completed')
        and agent_id = any($2)`,
        [buyer, agents.map((agent) => agent.id)],
      ),
    ).toEqual([]);
    expect(await sql('select 1 from public.cart_items where user_id = $1', [buyer])).toHaveLength(2);
  });

  it('twenty simultaneous checkouts of one cart record one order', async () => {
    const email = 'emma.johansson@demo.test';
    const cookie = await signInThroughApp(app.origin, email);
    const agents = await unownedAgents(email, 2);
    for (const agent of agents) await post('/cart', cookie, { intent: 'add', agentId: agent.id });
    const { idempotencyKey, total, lines } = await checkoutFields(cookie);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('/cart', cookie, { intent: 'checkout', idempotencyKey, total, lines })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(303));
    const buyer = await userId(email);
    expect(await sql('select 1 from public.orders where buyer_id = $1', [buyer])).toHaveLength(1);
    expect(
      await sql(`select 1 from public.purchases where buyer_id = $1 and order_id is not null`, [buyer]),
    ).toHaveLength(2);
  });
});

describe('the Data API', () => {
  it('takes a buyer’s own rows of a published agent of another seller, and nothing else', async () => {
    const api = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    expect((await api.from('cart_items').select('agent_id')).error?.code).toBe('42501');
    await api.auth.signInWithPassword({ email: 'noah.williams@demo.test', password: 'demo-password' });
    const me = await userId('noah.williams@demo.test');
    const other = await userId('buyer@demo.test');
    const [agent] = await unownedAgents('noah.williams@demo.test', 1);
    const [draft] = await sql<{ id: string }>(`select id from public.agents where status <> 'published' limit 1`);
    expect((await api.from('cart_items').insert({ user_id: other, agent_id: agent!.id })).error?.code).toBe('42501');
    expect((await api.from('cart_items').insert({ user_id: me, agent_id: draft!.id })).error?.code).toBe('42501');
    expect((await api.from('cart_items').insert({ user_id: me, agent_id: agent!.id })).error).toBeNull();
    expect((await api.from('cart_items').select('user_id')).data).toEqual([{ user_id: me }]);
    // Orders and their payments are the server's to write.
    const forged = await api.from('orders').insert({
      buyer_id: me,
      idempotency_key: crypto.randomUUID(),
      list_price: 0,
      amount: 0,
      status: 'completed',
    });
    expect(forged.error?.code).toBe('42501');
    expect(
      (
        await api.rpc('create_order', {
          buyer: me,
          order_key: crypto.randomUUID(),
          order_provider: 'test',
          order_method: '',
          order_discount_percent: 100,
          lines: [],
        })
      ).error?.code,
    ).toBe('42501');
    expect((await api.from('orders').select('id')).data).toEqual([]);
  });
});

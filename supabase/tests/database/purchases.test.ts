/**
 * The rules of a sale in the database (migration 20261125000100), whatever code writes: a new
 * purchase is of a published agent, not the buyer's own, at the agent's price less the discount;
 * one live purchase per buyer and agent; statuses move only forward; the money never changes.
 * Plus the versioned packages, presence and the purchase-history reads (its list and its summary).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import {
  DEMO,
  anon,
  errorCodeAs,
  openSeededDatabase,
  rolledBack,
  rowsAs,
  seedAgentId,
  serviceRole,
  user,
} from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

// A probe agent of demo_seller per test (rolled back), so the seed's purchases never interfere.
const NEW_AGENT = `insert into public.agents (name, description, price, category, seller_id, status)
  values ('Purchase Probe', 'd', 50, 'Sales', $1, 'published') returning id`;
const BUY = `insert into public.purchases (buyer_id, agent_id, list_price, discount_percent, discount_amount, amount, status, idempotency_key)
  values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`;

type Tx = Parameters<Parameters<typeof rolledBack>[2]>[0];

async function probe<T>(work: (tx: Tx, agentId: string) => Promise<T>) {
  return rolledBack(db, serviceRole, async (tx) => {
    const agent = await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller]);
    return work(tx, agent.rows[0]!.id);
  });
}

/** The SQLSTATE of one statement inside the test's transaction, undone either way (a savepoint). */
async function codeInSavepoint(tx: Tx, sql: string, params: unknown[]): Promise<string | undefined> {
  await tx.query('savepoint attempt');
  try {
    await tx.query(sql, params);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  } finally {
    await tx.query('rollback to savepoint attempt');
  }
}

describe('a new purchase', () => {
  it('records list price, discount and amount paid', async () => {
    const row = await probe(async (tx, agentId) => {
      await tx.query(BUY, [DEMO.buyer, agentId, 50, 10, 5, 45, 'pending', null]);
      return (
        await tx.query(
          'select list_price, discount_percent, discount_amount, amount, seller_id from public.purchases where agent_id = $1',
          [agentId],
        )
      ).rows[0];
    });
    expect(row).toEqual({
      list_price: '50.00',
      discount_percent: 10,
      discount_amount: '5.00',
      amount: '45.00',
      seller_id: DEMO.seller,
    });
  });

  it('is refused for the seller of the agent, an unpublished agent, another price or an inconsistent amount', async () => {
    const codes = await probe(async (tx, agentId) => {
      const attempt = (values: unknown[]) => codeInSavepoint(tx, BUY, values);
      const own = await attempt([DEMO.seller, agentId, 50, 0, 0, 50, 'completed', null]);
      const cheaper = await attempt([DEMO.buyer, agentId, 1, 0, 0, 1, 'completed', null]);
      const inconsistent = await attempt([DEMO.buyer, agentId, 50, 10, 5, 40, 'completed', null]);
      const refundedAtOnce = await attempt([DEMO.buyer, agentId, 50, 0, 0, 50, 'refunded', null]);
      await tx.query(`update public.agents set status = 'archived' where id = $1`, [agentId]);
      const archived = await attempt([DEMO.buyer, agentId, 50, 0, 0, 50, 'completed', null]);
      return { own, cheaper, inconsistent, refundedAtOnce, archived };
    });
    expect(codes).toEqual({
      own: 'PT409',
      cheaper: '22023',
      inconsistent: '23514',
      refundedAtOnce: '22023',
      archived: 'PT409',
    });
  });

  it('is one live purchase per buyer and agent, and one per idempotency key', async () => {
    const codes = await probe(async (tx, agentId) => {
      const key = '11111111-1111-4111-8111-111111111111';
      await tx.query(BUY, [DEMO.buyer, agentId, 50, 0, 0, 50, 'pending', key]);
      const attempt = (values: unknown[]) => codeInSavepoint(tx, BUY, values);
      const secondLive = await attempt([DEMO.buyer, agentId, 50, 0, 0, 50, 'completed', null]);
      const sameKey = await attempt([DEMO.buyer, seedAgentId(2), 99, 0, 0, 99, 'pending', key]);
      // A failed attempt does not block a new one.
      await tx.query(`update public.purchases set status = 'failed' where agent_id = $1`, [agentId]);
      const afterFailure = await attempt([DEMO.buyer, agentId, 50, 0, 0, 50, 'completed', null]);
      return { secondLive, sameKey, afterFailure };
    });
    expect(codes).toEqual({ secondLive: '23505', sameKey: '23505', afterFailure: undefined });
  });
});

describe('a purchase later', () => {
  it('moves only pending → completed | failed and completed → refunded, and keeps its money', async () => {
    const results = await probe(async (tx, agentId) => {
      const id = (await tx.query<{ id: string }>(BUY, [DEMO.buyer, agentId, 50, 0, 0, 50, 'pending', null])).rows[0]!
        .id;
      const attempt = (sql: string) => codeInSavepoint(tx, sql, [id]);
      const pendingToRefunded = await attempt(`update public.purchases set status = 'refunded' where id = $1`);
      await tx.query(`update public.purchases set status = 'completed' where id = $1`, [id]);
      const cheaper = await attempt(`update public.purchases set amount = 1, list_price = 1 where id = $1`);
      const otherBuyer = await attempt(`update public.purchases set buyer_id = '${DEMO.otherBuyer}' where id = $1`);
      await tx.query(`update public.purchases set status = 'refunded', status_reason = 'Duplicate' where id = $1`, [
        id,
      ]);
      const backToCompleted = await attempt(`update public.purchases set status = 'completed' where id = $1`);
      const row = (
        await tx.query('select status, refunded_at is not null as stamped from public.purchases where id = $1', [id])
      ).rows[0];
      return { pendingToRefunded, cheaper, otherBuyer, backToCompleted, row };
    });
    expect(results).toEqual({
      pendingToRefunded: 'PT409',
      cheaper: '22023',
      otherBuyer: '22023',
      backToCompleted: 'PT409',
      row: { status: 'refunded', stamped: true },
    });
  });

  it('is never written by a buyer, a seller or anon; payment events are the server’s alone', async () => {
    const insert = `insert into public.purchases (buyer_id, agent_id, list_price, amount, status) values ($1, $2, 99, 99, 'completed')`;
    expect(await errorCodeAs(db, user(DEMO.buyer), insert, [DEMO.buyer, seedAgentId(2)])).toBe('42501');
    expect(await errorCodeAs(db, anon, insert, [DEMO.buyer, seedAgentId(2)])).toBe('42501');
    expect(
      await errorCodeAs(db, user(DEMO.seller), `update public.purchases set status = 'refunded' where seller_id = $1`, [
        DEMO.seller,
      ]),
    ).toBe('42501');
    expect(await errorCodeAs(db, user(DEMO.buyer), 'select * from public.payment_events')).toBe('42501');
  });
});

describe('packages, presence and the purchase history', () => {
  it("the seed ships a 1.0.0 package for every agent, in its seller's and agent's folder", async () => {
    const rows = await rowsAs<{ agents: number; first: number; paths: number }>(
      db,
      serviceRole,
      `select (select count(*)::int from public.agents) as agents,
              (select count(*)::int from public.agent_versions where version = '1.0.0') as first,
              (select count(*)::int from public.agent_versions v join public.agents a on a.id = v.agent_id
               where v.file_path not like a.seller_id || '/' || a.id || '/' || v.version || '/%.json') as paths`,
    );
    expect(rows[0]!.first).toBe(rows[0]!.agents);
    expect(rows[0]!.paths).toBe(0);
  });

  it('is_online follows touch_presence; nobody reads the exact time', async () => {
    const online = await rolledBack(db, user(DEMO.seller), async (tx) => {
      const before = await tx.query<{ is_online: boolean }>(
        'select is_online from public.public_profiles where id = $1',
        [DEMO.seller],
      );
      await tx.query('select public.touch_presence()');
      const after = await tx.query<{ is_online: boolean }>(
        'select is_online from public.public_profiles where id = $1',
        [DEMO.seller],
      );
      return [before.rows[0]!.is_online, after.rows[0]!.is_online];
    });
    expect(online).toEqual([false, true]);
    expect(await errorCodeAs(db, user(DEMO.seller), 'select * from public.user_presence')).toBe('42501');
    expect(await errorCodeAs(db, anon, 'select public.touch_presence()')).toBe('42501');
  });

  it('purchase_history filters the caller’s purchases in SQL and shows nobody else’s', async () => {
    const count = async (args: string) =>
      (
        await rowsAs<{ n: number }>(
          db,
          user(DEMO.buyer),
          `select count(*)::int as n from public.purchase_history(${args})`,
        )
      )[0]!.n;
    expect(await count('')).toBe(9);
    expect(await count(`purchase_status => 'completed'`)).toBe(6);
    expect(await count(`purchase_status => 'refunded'`)).toBe(1);
    expect(await count(`search => 'demo_seller'`)).toBeGreaterThan(0);
    expect(await count(`search => '%'`)).toBe(0); // a literal percent sign, not a wildcard
    expect(await count(`category => 'Nope'`)).toBe(0);
    const other = await rowsAs<{ n: number }>(
      db,
      user(DEMO.otherBuyer),
      'select count(*)::int as n from public.purchase_history() where buyer_id = $1',
      [DEMO.buyer],
    );
    expect(other[0]!.n).toBe(0);
  });

  it('purchase_history_page is purchase_history a page at a time, and purchase_summary counts the matches', async () => {
    /** Whole rows as JSON, in the order given, as the demo buyer (or `id`) reads them. */
    const rowsOf = async (sql: string, id: string = DEMO.buyer) =>
      (await rowsAs<{ row: unknown }>(db, user(id), `select to_jsonb(h) as row from ${sql} h`)).map((r) => r.row);
    const matchingOf = async (args: string, id: string = DEMO.buyer) =>
      (
        await rowsAs<{ n: number }>(
          db,
          user(id),
          `select purchase_count::int, matching_count::int as n from public.purchase_summary(${args})`,
        )
      )[0]!.n;
    for (const args of [
      '',
      `purchase_status => 'completed'`,
      `search => 'demo_seller'`,
      `category => 'Sales'`,
      `search => '%'`,
    ]) {
      const all = await rowsOf(`public.purchase_history(${args})`);
      const sep = args ? ', ' : '';
      const pages = [];
      for (const offset of [0, 4, 8, 12]) {
        pages.push(
          ...(await rowsOf(`public.purchase_history_page(${args}${sep}page_size => 4, page_offset => ${offset})`)),
        );
      }
      expect(pages).toEqual(all);
      expect(await matchingOf(args)).toBe(all.length);
    }
    // The demo buyer's nine purchases: 24 a page by default; sizes and offsets kept in range.
    expect(await rowsOf('public.purchase_history_page()')).toHaveLength(9);
    expect(await rowsOf('public.purchase_history_page(page_size => 0)')).toHaveLength(1);
    expect(await rowsOf('public.purchase_history_page(page_offset => -5)')).toHaveLength(9);
    expect(await rowsOf('public.purchase_history_page(page_offset => 9)')).toEqual([]);
    // Nobody else's: another buyer's pages and count hold none of the demo buyer's purchases.
    const theirs = await rowsOf('public.purchase_history_page(page_size => 1000)', DEMO.otherBuyer);
    expect(theirs.every((row) => (row as { buyer_id: string }).buyer_id === DEMO.otherBuyer)).toBe(true);
    expect(await matchingOf('', DEMO.otherBuyer)).toBe(theirs.length);
    // A seller's sales and an admin's view of every purchase are not theirs as a buyer.
    for (const id of [DEMO.seller, DEMO.admin]) {
      const own = await rowsAs<{ n: number }>(
        db,
        serviceRole,
        'select count(*)::int as n from public.purchases where buyer_id = $1',
        [id],
      );
      expect(await matchingOf('', id)).toBe(own[0]!.n);
      expect(await rowsOf('public.purchase_history_page(page_size => 1000)', id)).toHaveLength(own[0]!.n);
    }
    expect(await errorCodeAs(db, anon, 'select * from public.purchase_history_page()')).toBe('42501');
    expect(await errorCodeAs(db, anon, 'select * from public.purchase_history_matches()')).toBe('42501');
  });

  it('purchase_history_matches stays inlinable: plain SQL, neither SECURITY DEFINER nor with a SET clause', async () => {
    // Otherwise each page would build every matching purchase before cutting the page.
    const rows = await rowsAs(
      db,
      serviceRole,
      `select l.lanname as language, p.prosecdef as definer, p.proconfig as config, p.provolatile as volatility
         from pg_proc p join pg_language l on l.oid = p.prolang
        where p.oid = 'public.purchase_history_matches(text, text, text)'::regprocedure`,
    );
    expect(rows).toEqual([{ language: 'sql', definer: false, config: null, volatility: 's' }]);
  });

  it('purchase_summary sums up the caller’s own purchases as the buyer, nobody else’s', async () => {
    type Summary = { purchase_count: number; total_spent: string; categories: string[] };
    /** The summary as `id` sees it, then back to the service role. */
    const summaryAs = async (tx: Tx, id: string) => {
      await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify(user(id)),
      ]);
      const summary = await tx.query<Summary>(
        'select purchase_count::int as purchase_count, total_spent::text as total_spent, categories from public.purchase_summary()',
      );
      const readable = await tx.query<{ n: number }>('select count(*)::int as n from public.purchases');
      await tx.query(`select set_config('role', 'service_role', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify(serviceRole),
      ]);
      return { ...summary.rows[0]!, readable: readable.rows[0]!.n };
    };
    /** The same figures read from the table by the service role (no row-level security). */
    const figuresOf = async (tx: Tx, id: string) =>
      (
        await tx.query<Summary>(
          `select count(*)::int as purchase_count,
                  coalesce(sum(p.amount) filter (where p.status = 'completed'), 0)::text as total_spent,
                  coalesce((select array_agg(c.name order by c.name) from public.categories c
                             where exists (select 1 from public.purchases q join public.agents a on a.id = q.agent_id
                                            where q.buyer_id = $1 and a.category = c.name)), '{}') as categories
             from public.purchases p where p.buyer_id = $1`,
          [id],
        )
      ).rows[0]!;

    const seen = await probe(async (tx, agentId) => {
      const before = { buyer: await summaryAs(tx, DEMO.buyer), other: await summaryAs(tx, DEMO.otherBuyer) };
      const expected = { buyer: await figuresOf(tx, DEMO.buyer), other: await figuresOf(tx, DEMO.otherBuyer) };
      // Another buyer buys the probe agent at a discount, fails once, and has a second agent refunded.
      await tx.query(BUY, [DEMO.otherBuyer, agentId, 50, 10, 5, 45, 'completed', null]);
      await tx.query(BUY, [DEMO.otherBuyer, agentId, 50, 0, 0, 50, 'failed', null]);
      const second = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller])).rows[0]!.id;
      const refunded = (await tx.query<{ id: string }>(BUY, [DEMO.otherBuyer, second, 50, 0, 0, 50, 'completed', null]))
        .rows[0]!.id;
      await tx.query(`update public.purchases set status = 'refunded' where id = $1`, [refunded]);
      return {
        before,
        expected,
        after: {
          buyer: await summaryAs(tx, DEMO.buyer),
          other: await summaryAs(tx, DEMO.otherBuyer),
          seller: await summaryAs(tx, DEMO.seller),
          admin: await summaryAs(tx, DEMO.admin),
        },
        expectedAfter: {
          other: await figuresOf(tx, DEMO.otherBuyer),
          seller: await figuresOf(tx, DEMO.seller),
          admin: await figuresOf(tx, DEMO.admin),
        },
      };
    });

    // The demo buyer's nine purchases of the seed (six completed), as purchase_history lists them.
    expect(seen.before.buyer).toMatchObject({ ...seen.expected.buyer, purchase_count: 9 });
    expect(seen.before.other).toMatchObject(seen.expected.other);
    // Three more purchases of another buyer: theirs counts them (only the completed 45.00 spent),
    // the demo buyer's does not move.
    expect(seen.after.buyer).toEqual(seen.before.buyer);
    expect(seen.after.other).toMatchObject(seen.expectedAfter.other);
    expect(seen.after.other.purchase_count).toBe(seen.before.other.purchase_count + 3);
    expect(Number(seen.after.other.total_spent)).toBeCloseTo(Number(seen.before.other.total_spent) + 45, 2);
    expect(seen.after.other.categories).toContain('Sales');
    // The seller reads the sales of their agents and an admin every purchase; each summary is
    // still only their own purchases as the buyer.
    expect(seen.after.seller.readable).toBeGreaterThan(seen.after.seller.purchase_count);
    expect(seen.after.seller).toMatchObject(seen.expectedAfter.seller);
    expect(seen.after.admin.readable).toBeGreaterThan(seen.after.admin.purchase_count);
    expect(seen.after.admin).toMatchObject(seen.expectedAfter.admin);
    // Signed out: not callable.
    expect(await errorCodeAs(db, anon, 'select * from public.purchase_summary()')).toBe('42501');
  });
});

/**
 * The rules of a sale in the database (migration 20261125000100), whatever code writes: a new
 * purchase is of a published agent, not the buyer's own, at the agent's price less the discount;
 * one live purchase per buyer and agent; statuses move only forward; the money never changes.
 * Plus the versioned packages, presence and the purchase-history read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/database';
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
  it('the seed ships a 1.0.0 package for every agent under demo/', async () => {
    const rows = await rowsAs<{ agents: number; first: number; paths: number }>(
      db,
      serviceRole,
      `select (select count(*)::int from public.agents) as agents,
              (select count(*)::int from public.agent_versions where version = '1.0.0') as first,
              (select count(*)::int from public.agent_versions where file_path not like 'demo/%') as paths`,
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
});

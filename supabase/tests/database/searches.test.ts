/**
 * The admin searches' views (migration 20261129000400), each read with the caller's row-level
 * security (security invoker); anonymous reads neither, nobody writes through them.
 * - public.purchase_search, what the Disputes search filters: each purchase with its agent's name
 *   and its buyer's username. An admin reads every purchase, a seller only their sales, a buyer
 *   only their purchases.
 * - public.review_search, what Content Moderation's review search filters: each review with its
 *   agent's name, the name only where the caller may see the agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/database';
import { DEMO, anon, errorCodeAs, openSeededDatabase, rolledBackTransaction, rowsAs, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

type Row = { id: string; agent_name: string | null; buyer_username: string | null };
const SEARCH = 'select id, agent_name, buyer_username from public.purchase_search order by id';

/** Every purchase with its agent's name and buyer's username, as the owner (no row-level security). */
const everyPurchase = (where = 'true', params: unknown[] = []) =>
  rowsAs<Row>(
    db,
    { role: 'service_role' },
    `select p.id, a.name as agent_name, u.username as buyer_username from public.purchases p
       left join public.agents a on a.id = p.agent_id left join public.users u on u.id = p.buyer_id
      where ${where} order by p.id`,
    params,
  );

it('both views run as their caller', async () => {
  const views = await rowsAs<{ name: string; options: string[] | null }>(
    db,
    { role: 'service_role' },
    `select relname as name, reloptions as options from pg_class
      where oid in ('public.purchase_search'::regclass, 'public.review_search'::regclass) order by 1`,
  );
  expect(views).toEqual([
    { name: 'purchase_search', options: ['security_invoker=true'] },
    { name: 'review_search', options: ['security_invoker=true'] },
  ]);
});

describe('purchase_search', () => {
  it('an admin reads every purchase with its agent’s name and buyer’s username', async () => {
    const all = await everyPurchase();
    expect(all.length).toBeGreaterThan(10);
    expect(await rowsAs<Row>(db, user(DEMO.admin), SEARCH)).toEqual(all);
  });

  it('a seller reads only their sales, a buyer only their purchases', async () => {
    const sales = await rowsAs<Row>(db, user(DEMO.seller), SEARCH);
    expect(sales.length).toBeGreaterThan(0);
    expect(sales).toEqual(await everyPurchase('p.seller_id = $1', [DEMO.seller]));
    const bought = await rowsAs<Row>(db, user(DEMO.buyer), SEARCH);
    expect(bought.length).toBeGreaterThan(0);
    expect(bought).toEqual(await everyPurchase('p.buyer_id = $1', [DEMO.buyer]));
  });

  it('anonymous reads nothing; nobody writes through it', async () => {
    expect(await errorCodeAs(db, anon, SEARCH)).toBe('42501');
    for (const sql of [
      `update public.purchase_search set status = 'refunded'`,
      `delete from public.purchase_search`,
      `insert into public.purchase_search (id) values (gen_random_uuid())`,
    ]) {
      // Refused: no privilege (42501), or first, as a view over joins, not updatable (55000).
      expect(await errorCodeAs(db, user(DEMO.admin), sql), sql).toMatch(/^(42501|55000)$/);
    }
  });
});

describe('review_search', () => {
  const REVIEWS = 'select id, agent_name from public.review_search order by id';
  /** Every review, with its agent's name where `visible` (SQL over the agent `a`) holds. */
  const everyReview = (visible: string, params: unknown[] = []) =>
    rowsAs<{ id: string; agent_name: string | null }>(
      db,
      { role: 'service_role' },
      `select r.id, case when ${visible} then a.name end as agent_name
         from public.reviews r join public.agents a on a.id = r.agent_id order by r.id`,
      params,
    );

  it('an admin reads every review with its agent’s name', async () => {
    const all = await everyReview('true');
    expect(all.length).toBeGreaterThan(10);
    expect(await rowsAs(db, user(DEMO.admin), REVIEWS)).toEqual(all);
  });

  it('another member reads every review (they are public), the agent’s name only where they may see the agent', async () => {
    // In one transaction, rolled back: a reviewed agent of demo_seller goes back to a draft.
    const seen = await rolledBackTransaction(db, async (tx) => {
      const [agent] = (
        await tx.query<{ id: string }>(
          `update public.agents set status = 'draft'
            where id = (select r.agent_id from public.reviews r join public.agents a on a.id = r.agent_id
                         where a.seller_id = $1 order by r.id limit 1) returning id`,
          [DEMO.seller],
        )
      ).rows;
      await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify(user(DEMO.otherSeller)),
      ]);
      const view = (await tx.query<{ id: string; agent_name: string | null }>(REVIEWS)).rows;
      // The same through the tables, as the same member.
      const tables = (
        await tx.query<{ id: string; agent_name: string | null }>(
          `select r.id, (select a.name from public.agents a where a.id = r.agent_id) as agent_name
             from public.reviews r order by r.id`,
        )
      ).rows;
      const [{ n }] = (await tx.query<{ n: number }>('select count(*)::int as n from public.reviews')).rows as [
        { n: number },
      ];
      return { draft: agent!.id, view, tables, n };
    });
    expect(seen.view).toEqual(seen.tables);
    expect(seen.view).toHaveLength(seen.n);
    const hidden = await rowsAs<{ id: string }>(
      db,
      { role: 'service_role' },
      'select id from public.reviews where agent_id = $1',
      [seen.draft],
    );
    expect(hidden.length).toBeGreaterThan(0);
    for (const { id } of hidden) expect(seen.view.find((row) => row.id === id)?.agent_name).toBeNull();
  });

  it('anonymous reads nothing; nobody writes through it', async () => {
    expect(await errorCodeAs(db, anon, REVIEWS)).toBe('42501');
    expect(await errorCodeAs(db, user(DEMO.admin), 'delete from public.review_search')).toMatch(/^(42501|55000)$/);
  });
});

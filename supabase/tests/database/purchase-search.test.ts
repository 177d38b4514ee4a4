/**
 * public.purchase_search (migration 20261129000400), what the Disputes search filters: each
 * purchase with its agent's name and its buyer's username, read with the caller's row-level
 * security (security invoker). An admin reads every purchase, a seller only their sales, a buyer
 * only their purchases, anonymous nothing; nobody writes through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/database';
import { DEMO, anon, errorCodeAs, openSeededDatabase, rowsAs, user } from './helpers';

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

describe('purchase_search', () => {
  it('runs as its caller', async () => {
    const [view] = await rowsAs<{ options: string[] | null }>(
      db,
      { role: 'service_role' },
      `select reloptions as options from pg_class where oid = 'public.purchase_search'::regclass`,
    );
    expect(view!.options).toContain('security_invoker=true');
  });

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

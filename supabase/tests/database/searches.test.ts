/**
 * The admin searches' functions (migration 20261129000400), each read with the caller's row-level
 * security (security invoker, inlinable) and agreeing with the same search worked out from the
 * tables by the database owner; anonymous may not call them.
 * - public.purchase_search(search), what the Disputes search reads: purchases whose agent name or
 *   buyer username contains the words, with the agent's name. An admin finds every purchase, a
 *   seller only their sales, a buyer only their purchases.
 * - public.review_search(search), what Content Moderation's review search reads: reviews whose
 *   text or agent name contains the words, with the agent's name where the caller may see it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import {
  DEMO,
  anon,
  errorCodeAs,
  openSeededDatabase,
  rolledBackTransaction,
  rowsAs,
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

type Row = { id: string; agent_name: string | null };

/** The same search from the tables, as the owner: `visible` (SQL over purchase `p` or review `r`) for whose rows. */
const purchasesMatching = (words: string, visible = 'true', params: unknown[] = []) =>
  rowsAs<Row>(
    db,
    serviceRole,
    `select p.id, a.name as agent_name from public.purchases p
       left join public.agents a on a.id = p.agent_id left join public.users u on u.id = p.buyer_id
      where (strpos(lower(a.name), lower($1)) > 0 or strpos(lower(u.username), lower($1)) > 0) and ${visible}
      order by p.id`,
    [words, ...params],
  );
const purchaseSearchAs = (id: string, words: string) =>
  rowsAs<Row>(db, user(id), 'select id, agent_name from public.purchase_search($1) order by id', [words]);

it('both functions are plain SQL that Postgres inlines: security invoker, no SET clause', async () => {
  const rows = await rowsAs(
    db,
    serviceRole,
    `select p.proname as name, l.lanname as language, p.prosecdef as definer, p.proconfig as config,
            p.provolatile as volatility
       from pg_proc p join pg_language l on l.oid = p.prolang
      where p.oid in ('public.purchase_search(text)'::regprocedure, 'public.review_search(text)'::regprocedure)
      order by 1`,
  );
  expect(rows).toEqual(
    ['purchase_search', 'review_search'].map((name) => ({
      name,
      language: 'sql',
      definer: false,
      config: null,
      volatility: 's',
    })),
  );
});

describe('purchase_search', () => {
  it('an admin finds every purchase whose agent or buyer matches, with the agent’s name', async () => {
    for (const words of ['campaign', 'demo_buyer', ' PILOT ', '%', 'nothing like this']) {
      expect(await purchaseSearchAs(DEMO.admin, words), words).toEqual(await purchasesMatching(words.trim()));
    }
    expect((await purchaseSearchAs(DEMO.admin, 'demo_buyer')).length).toBeGreaterThan(2);
  });

  it('a seller finds only their sales, a buyer only their purchases', async () => {
    const sales = await purchaseSearchAs(DEMO.seller, 'demo_buyer');
    expect(sales.length).toBeGreaterThan(0);
    expect(sales).toEqual(await purchasesMatching('demo_buyer', 'p.seller_id = $2', [DEMO.seller]));
    const bought = await purchaseSearchAs(DEMO.otherBuyer, 'a');
    expect(bought.length).toBeGreaterThan(0);
    expect(bought).toEqual(await purchasesMatching('a', 'p.buyer_id = $2', [DEMO.otherBuyer]));
  });

  it('anonymous may not call it', async () => {
    expect(await errorCodeAs(db, anon, `select * from public.purchase_search('a')`)).toBe('42501');
  });
});

describe('review_search', () => {
  const REVIEWS = 'select id, agent_name from public.review_search($1) order by id';

  it('an admin finds every review whose text or agent name matches', async () => {
    for (const words of ['campaign', 'setup', 'nothing like this']) {
      const expected = await rowsAs<Row>(
        db,
        serviceRole,
        `select r.id, a.name as agent_name from public.reviews r join public.agents a on a.id = r.agent_id
          where strpos(lower(r.review_text), lower($1)) > 0 or strpos(lower(a.name), lower($1)) > 0 order by r.id`,
        [words],
      );
      expect(await rowsAs(db, user(DEMO.admin), REVIEWS, [words]), words).toEqual(expected);
    }
  });

  it('another member finds the reviews (they are public) but no agent they may not see', async () => {
    // In one transaction, rolled back: a reviewed agent of demo_seller goes back to a draft.
    const seen = await rolledBackTransaction(db, async (tx) => {
      const [agent] = (
        await tx.query<{ id: string; name: string }>(
          `update public.agents set status = 'draft'
            where id = (select r.agent_id from public.reviews r join public.agents a on a.id = r.agent_id
                         where a.seller_id = $1 and r.review_text is not null order by r.id limit 1)
            returning id, name`,
          [DEMO.seller],
        )
      ).rows;
      const [review] = (
        await tx.query<{ id: string; review_text: string }>(
          'select id, review_text from public.reviews where agent_id = $1 order by id limit 1',
          [agent!.id],
        )
      ).rows;
      await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify(user(DEMO.otherSeller)),
      ]);
      return {
        byName: (await tx.query<Row>(REVIEWS, [agent!.name])).rows,
        byText: (await tx.query<Row>(REVIEWS, [review!.review_text.slice(0, 30)])).rows,
        review: review!.id,
      };
    });
    // The agent's name finds nothing; its review's own text still finds it, without the name.
    expect(seen.byName).toEqual([]);
    expect(seen.byText).toContainEqual({ id: seen.review, agent_name: null });
  });

  it('anonymous may not call it', async () => {
    expect(await errorCodeAs(db, anon, `select * from public.review_search('a')`)).toBe('42501');
  });
});

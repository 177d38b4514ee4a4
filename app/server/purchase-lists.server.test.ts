/**
 * My Collection and Purchase History page their lists (24 a page, `?page=N`) against the embedded
 * backend (seeded, in memory; the demo buyer's own signed-in client, so row-level security
 * applies). The demo buyer gets 30 more completed and 5 more failed purchases here (this file's
 * database is its own); expected figures come from SQL, written independently of the app's queries.
 * Purchase History's summary is checked on another buyer with a long history of every status.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { anonClient } from '../../tests/support/clients';
import { newMember } from '../../tests/support/subscribers';
import {
  DEMO_VIEWERS,
  routeAnswer,
  routeContext,
  signedInClient,
  type TestViewer,
} from '../../tests/support/route-context';
import { Pager } from '~/components/ui/pager';
import { collectionCountLine, collectionHref } from '~/lib/collection';
import { PAGE_SIZE } from '~/lib/marketplace-params';
import { pageCount } from '~/lib/pagination';
import { formatMoney } from '~/lib/dashboard-format';
import { purchaseCountLabel, purchasesHref } from '~/lib/purchase-history';
import { loader as collectionLoader } from '~/routes/dashboard/collection';
import { loader as purchasesLoader } from '~/routes/dashboard/purchases';
import { type listCollection } from '~/server/collection.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const BUYER = DEMO_VIEWERS.buyer;

describe.skipIf(isHostedTarget)('paged purchase lists', () => {
  let target: ContractTarget;
  let client: AppSupabaseClient;

  const sql = async (text: string, values: unknown[] = [BUYER.id]) =>
    (await target.backend!.db.query(text, values)).rows;
  const number = async (text: string) => Number(((await sql(text))[0] as { value: string | number }).value);

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    client = (await signedInClient(target, BUYER.email)) as unknown as AppSupabaseClient;
    // 30 agents the buyer has not completed a purchase of, bought a minute apart; 5 failed tries.
    await sql(
      `insert into public.purchases (buyer_id, agent_id, amount, list_price, status, created_at)
       select $1, id, 10, 10, 'completed', now() - n * interval '1 minute'
         from (select a.id, row_number() over (order by a.id) as n from public.agents a
                where a.status = 'published'
                  and not exists (select 1 from public.purchases p
                                   where p.buyer_id = $1 and p.agent_id = a.id and p.status = 'completed')
                limit 30) fresh`,
    );
    await sql(
      `insert into public.purchases (buyer_id, agent_id, amount, list_price, status, created_at)
       select $1, id, 7, 7, 'failed', now() - interval '1 day' from public.agents where status = 'published' limit 5`,
    );
  });
  afterAll(() => target?.close());

  const args = (path: string, pattern: string, viewer: TestViewer = BUYER, as: AppSupabaseClient = client) => {
    const url = new URL(`http://localhost${path}`);
    return {
      request: new Request(url),
      context: routeContext(target, viewer, as as never),
      url,
      params: {},
      pattern,
    } as never;
  };
  const collectionAt = (search: string) =>
    collectionLoader(args(`/dashboard/collection${search}`, 'dashboard/collection'));
  const purchasesAt = (search: string) => purchasesLoader(args(`/dashboard/purchases${search}`, 'dashboard/purchases'));
  const nextPageHref = (page: number, total: number, hrefFor: (page: number) => string) => {
    const html = renderToStaticMarkup(
      createElement(
        MemoryRouter,
        null,
        createElement(Pager, {
          variant: 'numbered',
          label: 'Pagination',
          page,
          pageCount: pageCount(total, PAGE_SIZE),
          hrefFor,
        }),
      ),
    );
    const link = /<a [^>]*aria-label="Next page"[^>]*>/.exec(html)?.[0];
    return link ? (/href="([^"]*)"/.exec(link)?.[1]?.replaceAll('&amp;', '&') ?? null) : null;
  };

  it('My Collection: 24 cards a page, the total in the header, a next-page link to the rest', async () => {
    const completed = await number(
      `select count(*) as value from public.purchases where buyer_id = $1 and status = 'completed'`,
    );
    expect(completed).toBeGreaterThan(PAGE_SIZE);

    const first = await collectionAt('');
    expect(first).toMatchObject({ error: null, collection: { page: 1, total: completed } });
    const { collection } = first as { collection: Awaited<ReturnType<typeof listCollection>> };
    expect(collection.items).toHaveLength(PAGE_SIZE);
    expect(collectionCountLine(collection.total)).toBe(`${completed} AI agents in your collection`);

    const next = nextPageHref(1, collection.total, collectionHref);
    expect(next).toBe('/dashboard/collection?page=2');
    const second = (await collectionAt('?page=2')) as typeof first;
    const rest = (second as { collection: typeof collection }).collection;
    expect(rest.page).toBe(2);
    expect(rest.items).toHaveLength(completed - PAGE_SIZE);
    // Newest first across pages, no purchase twice.
    const ids = [...collection.items, ...rest.items].map((item) => item.purchaseId);
    const expected = await sql(
      `select id from public.purchases where buyer_id = $1 and status = 'completed' order by created_at desc, id desc`,
    );
    expect(ids).toEqual(expected.map((row) => (row as { id: string }).id));
    expect(nextPageHref(2, rest.total, collectionHref)).toBeNull();
  });

  it('My Collection: a page past the end goes to the last page, a malformed one to the first', async () => {
    expect(await routeAnswer(collectionAt('?page=99'))).toMatchObject({
      status: 302,
      location: '/dashboard/collection?page=2',
    });
    for (const page of ['abc', '0', '-1', '1']) {
      expect(await routeAnswer(collectionAt(`?page=${page}`))).toMatchObject({
        status: 302,
        location: '/dashboard/collection',
      });
    }
  });

  it('Purchase History: 24 rows a page, the summary over the whole history, filters kept in the page links', async () => {
    const count = await number(`select count(*) as value from public.purchases where buyer_id = $1`);
    const spent = await number(
      `select sum(amount) as value from public.purchases where buyer_id = $1 and status = 'completed'`,
    );
    const completed = await number(
      `select count(*) as value from public.purchases where buyer_id = $1 and status = 'completed'`,
    );
    expect(completed).toBeGreaterThan(PAGE_SIZE);

    type Loaded = Extract<Awaited<ReturnType<typeof purchasesLoader>>, { error: null }>;
    const all = (await purchasesAt('')) as Loaded;
    expect(all.history).toMatchObject({ count, totalSpent: spent, page: 1, matching: count });
    expect(all.history.rows).toHaveLength(PAGE_SIZE);

    const filtered = (await purchasesAt('?status=completed')) as Loaded;
    // The summary stays the whole history's; the pages divide the filtered rows.
    expect(filtered.history).toMatchObject({ count, totalSpent: spent, page: 1, matching: completed });
    expect(filtered.history.rows).toHaveLength(PAGE_SIZE);
    const next = nextPageHref(1, completed, (page) => purchasesHref({ ...filtered.params, page, contact: null }));
    expect(next).toBe('/dashboard/purchases?status=completed&page=2');

    const second = (await purchasesAt('?status=completed&page=2')) as Loaded;
    expect(second.params).toMatchObject({ status: 'completed', page: 2 });
    expect(second.history.rows).toHaveLength(completed - PAGE_SIZE);
    expect(second.history.rows.every((row) => row.status === 'completed')).toBe(true);
    const seen = new Set([...filtered.history.rows, ...second.history.rows].map((row) => row.id));
    expect(seen.size).toBe(completed);
  });

  it('Purchase History: past the end is the last page, malformed is the first; the dialog opens for any purchase', async () => {
    expect(await routeAnswer(purchasesAt('?status=completed&page=99'))).toMatchObject({
      status: 302,
      location: '/dashboard/purchases?status=completed&page=2',
    });
    expect(await routeAnswer(purchasesAt('?page=x'))).toMatchObject({ status: 302, location: '/dashboard/purchases' });

    // The oldest purchase is on the last page, yet its seller can be contacted from page 1.
    const [oldest] = (await sql(
      `select p.id from public.purchases p where p.buyer_id = $1 and p.seller_id is not null
        order by p.created_at, p.id limit 1`,
    )) as { id: string }[];
    const withDialog = (await purchasesAt(`?contact=${oldest!.id}`)) as Extract<
      Awaited<ReturnType<typeof purchasesLoader>>,
      { error: null }
    >;
    expect(withDialog.history.contact?.purchaseId).toBe(oldest!.id);
    expect(withDialog.history.rows.some((row) => row.id === oldest!.id)).toBe(false);
  });

  describe('Purchase History summary over a long history', () => {
    // A new buyer with more purchases than the Data API returns in one read (1,000 rows): the
    // summary is summed by the database, not by the app over what one read brings back.
    const MANY = 1_100;
    let HEAVY: TestViewer;
    let heavyClient: AppSupabaseClient;
    let hiddenCategory: string;

    /** Dollars as numeric(10, 2) text ('19.90') to whole cents, without floating point. */
    const cents = (text: string) => {
      const [whole, fraction = ''] = text.split('.');
      return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
    };
    const dollars = (total: number) =>
      `$${Math.floor(total / 100).toLocaleString('en-US')}.${String(total % 100).padStart(2, '0')}`;

    /**
     * The summary worked out here from the purchases table, as its owner (no row-level security,
     * no Data API): every purchase counted, completed amounts summed in cents, and the categories
     * of the agents the buyer may still see (a plain draft is its seller's alone).
     */
    async function expectedSummary(buyerId: string) {
      const rows = (await sql(
        `select p.status, p.amount::text as amount, a.category,
                a.status <> 'draft' or a.moderation_reason is not null as visible
           from public.purchases p join public.agents a on a.id = p.agent_id
          where p.buyer_id = $1`,
        [buyerId],
      )) as { status: string; amount: string; category: string; visible: boolean }[];
      const spent = rows.filter((row) => row.status === 'completed').reduce((sum, row) => sum + cents(row.amount), 0);
      const categories = new Set(rows.filter((row) => row.visible).map((row) => row.category));
      return { rows, count: rows.length, spent, categories };
    }

    const heavyHistory = async () =>
      (await purchasesLoader(args('/dashboard/purchases', 'dashboard/purchases', HEAVY, heavyClient))) as Extract<
        Awaited<ReturnType<typeof purchasesLoader>>,
        { error: null }
      >;

    beforeAll(async () => {
      HEAVY = { ...(await newMember(target, 'summary-password', 'summary')), role: 'buyer' };
      heavyClient = (await signedInClient(target, HEAVY.email, 'summary-password')) as unknown as AppSupabaseClient;
      // The last category: only a purchase of an agent the buyer can no longer see (its seller
      // made it a draft again) will be in it.
      const [last] = (await sql(`select name from public.categories order by position desc limit 1`, [])) as {
        name: string;
      }[];
      hiddenCategory = last!.name;
      // MANY new agents over the other categories, with prices in cents, each bought once by the
      // buyer: every tenth pending, failed or refunded, a third of them at a tier discount.
      await sql(
        `with added as (
           insert into public.agents (name, description, price, category, seller_id, status)
           select 'Summary probe ' || n, 'A probe agent of the summary test.', (99 + (n * 3_737) % 20_000) / 100.0,
                  (select c.name from public.categories c where c.name <> $2
                    order by c.position offset n % 5 limit 1),
                  '00000000-0000-4000-8000-000000000002', 'published'
             from generate_series(1, $3::int) n
           returning id, price, (regexp_match(name, '[0-9]+$'))[1]::int as n
         )
         insert into public.purchases
           (buyer_id, agent_id, list_price, discount_percent, discount_amount, amount, status, created_at)
         select $1, id, price, d.pct, round(price * d.pct / 100, 2), price - round(price * d.pct / 100, 2),
                case n % 10 when 0 then 'pending' when 1 then 'failed' when 2 then 'refunded' else 'completed' end,
                now() - interval '2 days' - n * interval '1 minute'
           from added cross join lateral (select (n % 3) * 10 as pct) d`,
        [HEAVY.id, hiddenCategory, MANY],
      );
      // One failed purchase of an agent in the last category that its seller then took back to a draft.
      const [hidden] = (await sql(
        `insert into public.agents (name, description, price, category, seller_id, status)
         values ('Summary probe hidden', 'Back to a draft after the purchase.', 12.34, $1,
                 '00000000-0000-4000-8000-000000000002', 'published')
         returning id`,
        [hiddenCategory],
      )) as { id: string }[];
      await sql(
        `insert into public.purchases (buyer_id, agent_id, list_price, amount, status)
         values ($1, $2, 12.34, 12.34, 'failed')`,
        [HEAVY.id, hidden!.id],
      );
      await sql(`update public.agents set status = 'draft' where id = $1`, [hidden!.id]);
    });

    it('counts every purchase, sums the completed ones to the cent and lists the categories bought', async () => {
      const expected = await expectedSummary(HEAVY.id);
      expect(expected.count).toBeGreaterThan(MANY); // past one read's 1,000 rows
      expect(new Set(expected.rows.map((row) => row.status))).toEqual(
        new Set(['completed', 'pending', 'failed', 'refunded']),
      );
      expect(expected.rows.some((row) => row.category === hiddenCategory)).toBe(true);
      expect(expected.categories.has(hiddenCategory)).toBe(false);

      const { history } = await heavyHistory();
      expect(history.count).toBe(expected.count);
      expect(Math.round(history.totalSpent * 100)).toBe(expected.spent);
      expect(history.categories.map((category) => category.name)).toEqual(
        (await sql(`select name from public.categories order by position`, []))
          .map((row) => (row as { name: string }).name)
          .filter((name) => expected.categories.has(name)),
      );
      // What the header says.
      expect(`${purchaseCountLabel(history.count)} • Total spent: ${formatMoney(history.totalSpent)}`).toBe(
        `${expected.count.toLocaleString('en-US')} purchases • Total spent: ${dollars(expected.spent)}`,
      );
      // One page of rows all the same.
      expect(history.rows).toHaveLength(PAGE_SIZE);
      expect(history.matching).toBe(expected.count);
    });

    it('counts only the viewer’s own purchases as the buyer, whoever else’s they may read', async () => {
      // The demo buyer's summary is theirs alone, the long history above notwithstanding.
      const own = await expectedSummary(BUYER.id);
      const mine = ((await purchasesAt('')) as Awaited<ReturnType<typeof heavyHistory>>).history;
      expect(mine).toMatchObject({ count: own.count });
      expect(Math.round(mine.totalSpent * 100)).toBe(own.spent);

      // The seller reads the sales of every probe agent, an admin every purchase: neither is counted.
      for (const viewer of [DEMO_VIEWERS.seller, DEMO_VIEWERS.admin]) {
        const as = await signedInClient(target, viewer.email);
        const readable = await as.from('purchases').select('id', { count: 'exact', head: true });
        expect(readable.count).toBeGreaterThan(MANY);
        const { data, error } = await as.rpc('purchase_summary', undefined, { get: true }).single();
        expect(error).toBeNull();
        const expected = await expectedSummary(viewer.id);
        expect(data).toEqual({
          purchase_count: expected.count,
          total_spent: expected.spent / 100,
          categories: [...expected.categories].sort(),
          // No filter: every purchase of theirs as the buyer matches.
          matching_count: expected.count,
        });
      }

      // Signed out: no summary at all.
      const anonymous = await anonClient(target).rpc('purchase_summary', undefined, { get: true });
      expect(anonymous.data).toBeNull();
      expect(anonymous.error?.code).toBe('42501');
    });

    it('pages past the first 1,000 purchases, filtered or not, as the purchases table orders them', async () => {
      const at = async (search: string) =>
        (await purchasesLoader(
          args(`/dashboard/purchases${search}`, 'dashboard/purchases', HEAVY, heavyClient),
        )) as Awaited<ReturnType<typeof heavyHistory>>;
      /** The buyer's purchase ids newest first, read as the owner, under an optional status. */
      const expectedIds = async (status: string | null) =>
        (
          (await sql(
            `select id from public.purchases where buyer_id = $1 and ($2::text is null or status = $2)
              order by created_at desc, id desc`,
            [HEAVY.id, status],
          )) as { id: string }[]
        ).map((row) => row.id);

      const all = await expectedIds(null);
      const last = Math.ceil(all.length / PAGE_SIZE);
      expect((last - 1) * PAGE_SIZE).toBeGreaterThan(1_000);
      const lastPage = await at(`?page=${last}`);
      expect(lastPage.history).toMatchObject({ page: last, matching: all.length, count: all.length });
      expect(lastPage.history.rows.map((row) => row.id)).toEqual(all.slice((last - 1) * PAGE_SIZE));
      expect(await routeAnswer(at(`?page=${last + 3}`))).toMatchObject({
        status: 302,
        location: `/dashboard/purchases?page=${last}`,
      });

      const completed = await expectedIds('completed');
      const page = Math.ceil(completed.length / PAGE_SIZE) - 1;
      const filtered = await at(`?status=completed&page=${page}`);
      expect(filtered.history).toMatchObject({ page, matching: completed.length, count: all.length });
      expect(filtered.history.rows.map((row) => row.id)).toEqual(
        completed.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
      );
    });
  });
});

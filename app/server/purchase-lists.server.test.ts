/**
 * My Collection and Purchase History page their lists (24 a page, `?page=N`) against the embedded
 * backend (seeded, in memory; the demo buyer's own signed-in client, so row-level security
 * applies). The demo buyer gets 30 more completed and 5 more failed purchases here (this file's
 * database is its own); expected figures come from SQL, written independently of the app's queries.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { DEMO_VIEWERS, routeAnswer, routeContext, signedInClient } from '../../tests/support/route-context';
import { Pagination } from '~/components/pagination';
import { collectionCountLine, collectionHref } from '~/lib/collection';
import { PAGE_SIZE } from '~/lib/marketplace-params';
import { purchasesHref } from '~/lib/purchase-history';
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

  const args = (path: string, pattern: string) => {
    const url = new URL(`http://localhost${path}`);
    return {
      request: new Request(url),
      context: routeContext(target, BUYER, client as never),
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
      createElement(MemoryRouter, null, createElement(Pagination, { page, total, hrefFor })),
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
});

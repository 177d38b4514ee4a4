/**
 * Figures over more rows than one Data API read returns (1,000: PostgREST's max_rows, the
 * embedded backend's MAX_ROWS), against the embedded backend (seeded, in memory), through each
 * viewer's own client and the pages' loaders. The app used to read every row behind these figures
 * and add them up itself, so past 1,000 rows it showed the figures of the first 1,000 only. Each
 * expected figure is worked out here from every row, read with SQL as the database owner (no
 * row-level security, no Data API), with the app's old arithmetic (cents, the viewer's months).
 *
 * The data export, a list rather than a figure, was cut at 1,000 rows the same way.
 *
 * Seeded here (this file's database is its own): a seller with 1,301 published agents (plus
 * unsold ones), a buyer who bought 1,300 of them (every status, tier discounts, an hour apart),
 * 1,100 more buyers who each bought and reviewed one more agent of the seller, and 1,050 newer
 * versions of the demo seller's agents but one.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { DEMO_VIEWERS, routeContext, signedInClient, type TestViewer } from '../../tests/support/route-context';
import { insertAccounts, newMember } from '../../tests/support/subscribers';
import { REVIEWS_PER_PAGE } from '~/lib/agent-detail';
import { TIME_ZONE_COOKIE } from '~/lib/client-hints';
import { monthKey } from '~/lib/dashboard-format';
import { loyaltyPoints } from '~/lib/membership';
import { loader as agentLoader } from '~/routes/agent';
import { loader as exportLoader } from '~/routes/profile-export';
import { loader as membershipLoader } from '~/routes/dashboard/membership';
import { loader as overviewLoader } from '~/routes/dashboard/overview';
import { deleteAccount, type AccountExport } from '~/server/account.server';
import { listSellerAgents } from '~/server/listing.server';
import type { StatCard } from '~/server/dashboard.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const PASSWORD = 'long-history-password';
/** Purchases of the heavy buyer: 1 in 20 pending, failed or refunded each, so 1,105 completed. */
const BOUGHT = 1_300;
/** Buyers who each bought and reviewed the seller's rated agent. */
const RATERS = 1_100;
/** Newer versions spread over the demo seller's agents but one. */
const VERSIONS = 1_050;
/** A zone 14 hours ahead of UTC, so the month's first hours differ from UTC's. */
const TIME_ZONE = 'Pacific/Kiritimati';
const DAY_MS = 86_400_000;

describe.skipIf(isHostedTarget)('figures over more than 1,000 rows', () => {
  let target: ContractTarget;
  let buyer: TestViewer;
  let seller: TestViewer;
  let buyerClient: SupabaseClient;
  let sellerClient: SupabaseClient;
  let ratedAgent: string;

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await target.backend!.db.query(text, values)).rows as T[];

  /** Dollars as numeric(10, 2) text ('19.90') to whole cents, without floating point. */
  const cents = (text: string | null) => {
    const [whole = '0', fraction = ''] = (text ?? '0').split('.');
    return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  };
  const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

  const args = (path: string, pattern: string, viewer: TestViewer | null, client: SupabaseClient) => {
    const url = new URL(`http://localhost${path}`);
    return {
      request: new Request(url, { headers: { cookie: `${TIME_ZONE_COOKIE}=${encodeURIComponent(TIME_ZONE)}` } }),
      context: routeContext(target, viewer, client),
      url,
      params: pattern === 'agent/:agentId' ? { agentId: url.pathname.split('/').pop() } : {},
      pattern,
    } as never;
  };
  const cardsOf = async (viewer: TestViewer, client: SupabaseClient) => {
    const { cards } = (await overviewLoader(args('/dashboard', 'dashboard', viewer, client))) as { cards: StatCard[] };
    return Object.fromEntries(cards.map((card) => [card.label, card.value]));
  };

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    buyer = { ...(await newMember(target, PASSWORD, 'heavy-buyer')), role: 'buyer' };
    seller = { ...(await newMember(target, PASSWORD, 'heavy-seller')), role: 'seller' };
    await sql(`update public.users set user_type = 'seller' where id = $1`, [seller.id]);

    // The seller's agents, prices in cents over the categories; the buyer buys each once, an
    // hour apart back from now: every 20th pending, failed or refunded, a third at a discount.
    await sql(
      `with added as (
         insert into public.agents (name, description, price, category, seller_id, status)
         select 'Long history ' || n, 'A probe agent of the long-history test.', (99 + (n * 3_737) % 20_000) / 100.0,
                (select c.name from public.categories c order by c.position offset n % 6 limit 1), $2, 'published'
           from generate_series(1, $3::int) n
         returning id, price, (regexp_match(name, '[0-9]+$'))[1]::int as n
       )
       insert into public.purchases
         (buyer_id, agent_id, list_price, discount_percent, discount_amount, amount, status, created_at)
       select $1, id, price, d.pct, round(price * d.pct / 100, 2), price - round(price * d.pct / 100, 2),
              case n % 20 when 0 then 'pending' when 1 then 'failed' when 2 then 'refunded' else 'completed' end,
              now() - n * interval '1 hour'
         from added cross join lateral (select (n % 3) * 10 as pct) d`,
      [buyer.id, seller.id, BOUGHT],
    );
    // Agents nobody bought: a published one and two drafts.
    await sql(
      `insert into public.agents (name, description, price, category, seller_id, status)
       select 'Unsold ' || n, 'Never bought.', 5, 'Sales', $1, case when n = 1 then 'published' else 'draft' end
         from generate_series(1, 3) n`,
      [seller.id],
    );
    // The rated agent: RATERS new accounts buy it and review it, the first 1,000 (by insertion)
    // mostly 5 stars, the last 100 one star, so the first 1,000 rows alone tell another story.
    ratedAgent = (
      await sql<{ id: string }>(
        `insert into public.agents (name, description, price, category, seller_id, status)
         values ('Long history rated', 'Reviewed by many.', 20, 'Sales', $1, 'published') returning id`,
        [seller.id],
      )
    )[0]!.id;
    await insertAccounts(target, 'rater', 'long-history.test', RATERS);
    await sql(
      `insert into public.purchases (buyer_id, agent_id, list_price, amount, status)
       select u.id, $1, 20, 20, 'completed' from public.users u where u.email like '%@long-history.test'`,
      [ratedAgent],
    );
    await sql(
      `insert into public.reviews (agent_id, buyer_id, rating)
       select $1, u.id,
              case when n > 1000 then 1 when n % 50 = 0 then 3 else 5 end
         from (select id, (regexp_match(email, '[0-9]+'))[1]::int as n from public.users
                where email like '%@long-history.test') u
        order by n`,
      [ratedAgent],
    );
    // The seeding ran in this process (PGlite) for seconds: let the timers it held up close the
    // HTTP connections idle past their keep-alive before the next request, or it may be sent on
    // one the server is closing ('fetch failed').
    await new Promise((resolve) => setTimeout(resolve, 0));
    buyerClient = await signedInClient(target, buyer.email, PASSWORD);
    sellerClient = await signedInClient(target, seller.email, PASSWORD);
  });
  afterAll(() => target?.close());

  /** Every completed purchase of the buyer, read as the owner. */
  const completedPurchases = () =>
    sql<{ agent_id: string; amount: string; discount_amount: string | null; created_at: Date }>(
      `select agent_id, amount::text, discount_amount::text, created_at from public.purchases
        where buyer_id = $1 and status = 'completed'`,
      [buyer.id],
    );

  it('the buyer’s overview counts every completed purchase', async () => {
    const rows = await completedPurchases();
    expect(rows.length).toBeGreaterThan(1_000);
    const thisMonth = monthKey(new Date(), TIME_ZONE);
    const reviews = await sql<{ n: number }>('select count(*)::int as n from public.reviews where buyer_id = $1', [
      buyer.id,
    ]);

    const cards = await cardsOf(buyer, buyerClient);
    expect(cards).toEqual({
      'Agents Owned': new Set(rows.map((row) => row.agent_id)).size,
      'Total Spent': sumOf(rows.map((row) => cents(row.amount))) / 100,
      'Reviews Written': reviews[0]!.n,
      'Purchases This Month': rows.filter((row) => monthKey(new Date(row.created_at), TIME_ZONE) === thisMonth).length,
    });
    // The month is the viewer's: Kiritimati's started 14 hours before UTC's, so it has more.
    const utcMonth = rows.filter((row) => monthKey(new Date(row.created_at), 'UTC') === monthKey(new Date(), 'UTC'));
    expect(cards['Purchases This Month']).toBeGreaterThan(utcMonth.length);
  });

  it('Membership sums every completed purchase and its discount', async () => {
    const rows = await completedPurchases();
    const spent = sumOf(rows.map((row) => cents(row.amount)));
    const saved = sumOf(rows.map((row) => cents(row.discount_amount)));
    expect(saved).toBeGreaterThan(0);

    const page = await membershipLoader(args('/dashboard/membership', 'dashboard/membership', buyer, buyerClient));
    expect(page).toMatchObject({
      purchaseCount: rows.length,
      totalSpent: spent / 100,
      savingsEarned: saved / 100,
      loyaltyPoints: loyaltyPoints(spent / 100),
    });
  });

  it('the seller’s overview counts every published agent, sale and review', async () => {
    const [agents] = await sql<{ n: number }>(
      `select count(*)::int as n from public.agents where seller_id = $1 and status = 'published'`,
      [seller.id],
    );
    const sales = await sql<{ amount: string }>(
      `select amount::text from public.purchases where seller_id = $1 and status = 'completed'`,
      [seller.id],
    );
    const ratings = await sql<{ rating: number }>(
      `select r.rating from public.reviews r join public.agents a on a.id = r.agent_id where a.seller_id = $1`,
      [seller.id],
    );
    expect(Math.min(agents!.n, sales.length, ratings.length)).toBeGreaterThan(1_000);

    expect(await cardsOf(seller, sellerClient)).toEqual({
      'Published Agents': agents!.n,
      'Total Sales': sales.length,
      Revenue: sumOf(sales.map((sale) => cents(sale.amount))) / 100,
      'Average Rating': Math.round((sumOf(ratings.map((row) => row.rating)) / ratings.length) * 10) / 10,
    });
  });

  it('the admin’s overview sums the whole platform', async () => {
    const admin = DEMO_VIEWERS.admin;
    const weekAgo = Date.now() - 7 * DAY_MS;
    const sales = await sql<{ amount: string; created_at: Date }>(
      `select amount::text, created_at from public.purchases where status = 'completed'`,
    );
    const [counts] = await sql<{ users: number; agents: number }>(
      `select (select count(*)::int from public.users) as users,
              (select count(*)::int from public.agents where status = 'published') as agents`,
    );
    expect(Math.min(sales.length, counts!.users, counts!.agents)).toBeGreaterThan(1_000);

    const cards = await cardsOf(admin, await signedInClient(target, admin.email));
    // The week is counted from the loader's own clock, a moment after weekAgo: purchases an hour
    // apart are not that close to its edge.
    expect(cards).toEqual({
      'Total Users': counts!.users,
      'Published Agents': counts!.agents,
      'Platform Revenue': sumOf(sales.map((sale) => cents(sale.amount))) / 100,
      'Purchases This Week': sales.filter((sale) => new Date(sale.created_at).getTime() >= weekAgo).length,
    });
  });

  it('the agent page’s rating distribution and review pages count every review', async () => {
    const ratings = await sql<{ rating: number }>('select rating from public.reviews where agent_id = $1', [
      ratedAgent,
    ]);
    expect(ratings.length).toBe(RATERS);
    const count = (stars: number) => ratings.filter((row) => row.rating === stars).length;
    const load = async (page: number) =>
      (await agentLoader(
        args(`/agent/${ratedAgent}?reviewsPage=${page}`, 'agent/:agentId', null, anonClient(target)),
      )) as unknown as {
        data: {
          distribution: { stars: number; count: number; percent: number }[];
          paging: { page: number; pageCount: number };
          reviews: { rating: number }[];
        };
      };

    const first = (await load(1)).data;
    expect(first.distribution).toEqual(
      [5, 4, 3, 2, 1].map((stars) => ({
        stars,
        count: count(stars),
        percent: Math.round((count(stars) / ratings.length) * 100),
      })),
    );
    expect(first.distribution.find((bucket) => bucket.stars === 1)?.count).toBe(RATERS - 1_000);
    const pageCount = Math.ceil(RATERS / REVIEWS_PER_PAGE);
    expect(first.paging).toEqual({ page: 1, pageCount });
    // The last page exists (past the 200th), and a page past it shows the last one.
    for (const requested of [pageCount, pageCount + 50]) {
      const last = (await load(requested)).data;
      expect(last.paging).toEqual({ page: pageCount, pageCount });
      expect(last.reviews).toHaveLength(RATERS - (pageCount - 1) * REVIEWS_PER_PAGE);
    }
  });

  it('My AI Agents shows each agent’s latest version, however many versions there are', async () => {
    const demoSeller = DEMO_VIEWERS.seller;
    // Newer versions for every agent of the demo seller but its first: that one's latest is older
    // than all of them (the versions newest first would stop at 1,000 rows before reaching it).
    const left = (
      await sql<{ id: string }>(`select id from public.agents where seller_id = $1 order by created_at, id limit 1`, [
        demoSeller.id,
      ])
    )[0]!.id;
    await sql(
      `insert into public.agent_versions (agent_id, version, file_path, file_name, content_type, file_size, created_at)
       select a.id, '9.' || n, $1 || '/' || a.id || '/9.' || n || '/package.zip', 'package.zip', 'application/zip', 1, now() - n * interval '1 second'
         from generate_series(1, $3::int) n
         cross join lateral (
           select id from public.agents where seller_id = $1 and id <> $2
            order by id offset n % (select count(*) - 1 from public.agents where seller_id = $1) limit 1
         ) a`,
      [demoSeller.id, left, VERSIONS],
    );
    const latest = await sql<{ agent_id: string; version: string }>(
      `select distinct on (v.agent_id) v.agent_id, v.version
         from public.agent_versions v join public.agents a on a.id = v.agent_id
        where a.seller_id = $1
        order by v.agent_id, v.created_at desc, v.version desc`,
      [demoSeller.id],
    );
    const [versions] = await sql<{ n: number }>(
      `select count(*)::int as n from public.agent_versions v join public.agents a on a.id = v.agent_id
        where a.seller_id = $1`,
      [demoSeller.id],
    );
    expect(versions!.n).toBeGreaterThan(1_000);

    const client = (await signedInClient(target, demoSeller.email)) as unknown as AppSupabaseClient;
    const { rows: agents, pageCount } = await listSellerAgents(client, { sellerId: demoSeller.id, page: 1 });
    expect(pageCount).toBe(1); // the demo seller's agents fit on one page of the list
    expect(new Map(agents.map((agent) => [agent.id, agent.lastVersion]))).toEqual(
      new Map(latest.map((row) => [row.agent_id, row.version])),
    );
    expect(agents.find((agent) => agent.id === left)?.lastVersion).toMatch(/^[0-9.]+$/);
  });

  it('the data export holds every purchase, sale and agent', async () => {
    const exported = async (viewer: TestViewer, client: SupabaseClient) => {
      const response = (await exportLoader(args('/profile/export', 'profile/export', viewer, client))) as Response;
      expect(response.status).toBe(200);
      return (await response.json()) as AccountExport;
    };
    const idsOf = (sqlText: string, id: string) =>
      sql<{ id: string }>(sqlText, [id]).then((rows) => rows.map((row) => row.id));

    const mine = await exported(buyer, buyerClient);
    const bought = await idsOf('select id from public.purchases where buyer_id = $1 order by created_at, id', buyer.id);
    expect(bought.length).toBeGreaterThan(1_000);
    expect(mine.purchases.map((row) => row.id)).toEqual(bought);

    const theirs = await exported(seller, sellerClient);
    const sold = await idsOf('select id from public.purchases where seller_id = $1 order by created_at, id', seller.id);
    const listed = await idsOf('select id from public.agents where seller_id = $1 order by created_at, id', seller.id);
    expect(Math.min(sold.length, listed.length)).toBeGreaterThan(1_000);
    expect(theirs.sales.map((row) => row.id)).toEqual(sold);
    expect(theirs.agents.map((row) => row.id)).toEqual(listed);
  });

  // Last: the seller's account goes.
  it('deleting the seller’s account removes every unsold agent and keeps every sold one', async () => {
    const agentsOf = () =>
      sql<{ id: string; name: string; sold: boolean }>(
        `select a.id, a.name, exists (select 1 from public.purchases p where p.agent_id = a.id) as sold
           from public.agents a where a.seller_id = $1`,
        [seller.id],
      );
    const before = await agentsOf();
    const sold = before.filter((agent) => agent.sold).map((agent) => agent.id);
    expect(sold.length).toBeGreaterThan(1_000);
    expect(before.filter((agent) => !agent.sold).map((agent) => agent.name)).toEqual(
      expect.arrayContaining(['Unsold 1', 'Unsold 2', 'Unsold 3']),
    );
    const { username } = (
      await sql<{ username: string }>('select username from public.users where id = $1', [seller.id])
    )[0]!;

    const outcome = await deleteAccount(
      sellerClient as unknown as AppSupabaseClient,
      { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey },
      {
        id: seller.id,
        email: seller.email,
        username,
        avatarUrl: null,
        role: 'seller',
        permissions: [],
        createdAt: new Date().toISOString(),
      },
      username,
    );
    expect(outcome).toEqual({ ok: true });
    // The sold agents stay for their buyers, without a seller; nothing unsold is left.
    const kept = await sql<{ id: string; seller_id: string | null }>(
      `select id, seller_id from public.agents where id = any($1::uuid[])`,
      [before.map((agent) => agent.id)],
    );
    expect(kept.map((agent) => agent.id).toSorted()).toEqual(sold.toSorted());
    expect(new Set(kept.map((agent) => agent.seller_id))).toEqual(new Set([null]));
  });
});

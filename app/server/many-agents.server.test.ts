/**
 * The seller's lists with more agents than one Data API read returns (1,000: PostgREST's
 * max_rows, the embedded backend's MAX_ROWS), against the embedded backend (seeded, in memory,
 * behind a real HTTP server), through the seller's own client and the pages' loaders:
 *
 * - My AI Agents used to read every agent of the seller in one request: a seller with 1,060
 *   agents saw 1,000 of them. It is paged now; every page together is every agent, each with the
 *   figures worked out here from every row.
 * - Reviews used to read the seller's agent ids and send them all in one `agent_id=in.(…)` URL:
 *   with 1,060 agents that URL (39 KB) is longer than an HTTP server takes, and the page was a
 *   503 (past 1,000 agents the list was cut anyway). The database picks the reviews now.
 * - The admin's Disputes search sent the ids of up to 500 matching agents and 500 buyers the same
 *   way: a search matching those agents was a 503. Content Moderation's review search sent up to
 *   200: the reviews of the other matching agents were missing. The database picks both now.
 *
 * Each expected row is read with SQL as the database owner (no row-level security, no Data API).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import {
  DEMO_VIEWERS,
  routeAnswer,
  routeContext,
  signedInClient,
  type TestViewer,
} from '../../tests/support/route-context';
import { insertAccounts, newMember } from '../../tests/support/subscribers';
import { action as agentsAction, loader as agentsLoader } from '~/routes/dashboard/agents';
import { loader as disputesLoader } from '~/routes/dashboard/disputes';
import { loader as moderationLoader } from '~/routes/dashboard/moderation';
import { loader as reviewsLoader } from '~/routes/dashboard/reviews';
import type { ReviewRow } from '~/server/moderation.server';
import { DASHBOARD_PAGE_SIZE, type Page } from '~/server/paged-lists.server';
import type { SellerAgent } from '~/server/listing.server';
import type { SellerReviewRow } from '~/server/review-replies.server';
import { SALES_PAGE_SIZE, type SalesPage } from '~/server/sales.server';

const PASSWORD = 'many-agents-password';
/** The seller's agents: past one read's 1,000 rows. */
const AGENTS = 1_060;
/** Buyers; buyer k buys every agent whose number is a multiple of k + 1. */
const BUYERS = 3;

describe.skipIf(isHostedTarget)('a seller with more than 1,000 agents', () => {
  let target: ContractTarget;
  let seller: TestViewer;
  let sellerClient: SupabaseClient;

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await target.backend!.db.query(text, values)).rows as T[];

  const argsOf = (path: string, pattern: string, init?: RequestInit, as = { viewer: seller, client: sellerClient }) => {
    const url = new URL(`http://localhost${path}`);
    return {
      request: new Request(url, init),
      context: routeContext(target, as.viewer, as.client),
      url,
      params: {},
      pattern,
    } as never;
  };
  const agentsPage = async (page: number) =>
    (
      (await agentsLoader(argsOf(`/dashboard/agents?page=${page}`, 'dashboard/agents'))) as {
        agents: Page<SellerAgent>;
      }
    ).agents;
  const reviewsPage = async (page: number) =>
    (
      (await reviewsLoader(argsOf(`/dashboard/reviews?page=${page}`, 'dashboard/reviews'))) as {
        reviews: Page<SellerReviewRow>;
      }
    ).reviews;

  /** Every page of a dashboard list, page 1 to the last, and one asked for past the end. */
  async function everyPage<T>(load: (page: number) => Promise<Page<T>>) {
    const first = await load(1);
    const pages = [first];
    for (let page = 2; page <= first.pageCount; page += 1) pages.push(await load(page));
    return { pages, beyond: await load(first.pageCount + 3) };
  }

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    seller = { ...(await newMember(target, PASSWORD, 'many-agents')), role: 'seller' };
    await sql(`update public.users set user_type = 'seller' where id = $1`, [seller.id]);
    // …who accepted the Seller Policy (else a listing change first asks for it, ADR 069).
    await sql(
      `insert into public.policy_acceptances (user_id, document, version)
       select $1, document, version from public.current_policies where document = 'seller'`,
      [seller.id],
    );

    // The agents: every tenth a draft, every tenth an archived one, the rest published; created
    // in pairs at the same minute (the id breaks the tie), the first newest.
    await sql(
      `insert into public.agents (name, description, price, category, seller_id, status, created_at)
       select 'Many agents ' || n, 'A probe agent of the seller-lists test.', (99 + (n * 3_737) % 20_000) / 100.0,
              (select c.name from public.categories c order by c.position offset n % 6 limit 1), $1,
              case n % 10 when 0 then 'draft' when 1 then 'archived' else 'published' end,
              now() - (n / 2) * interval '1 minute'
         from generate_series(1, $2::int) n`,
      [seller.id, AGENTS],
    );
    // Two drafts unpublished by a moderator, one of them among the oldest.
    await sql(
      `update public.agents set moderation_reason = 'Misleading description ' || name, moderated_at = now()
        where seller_id = $1 and name in ('Many agents 10', 'Many agents 1050')`,
      [seller.id],
    );
    // Packages: every third agent has 1.0 two days ago and a newer 2.n; every fifth only 1.0.
    await sql(
      `insert into public.agent_versions (agent_id, version, file_path, file_name, content_type, file_size, created_at)
       select a.id, v.version, $1 || '/' || a.id || '/' || v.version || '/package.zip', 'package.zip', 'application/zip', 1, v.at
         from (select id, (regexp_match(name, '[0-9]+$'))[1]::int as n from public.agents where seller_id = $1) a
         cross join lateral (
           select '1.0' as version, now() - interval '2 days' as at where a.n % 3 = 0 or a.n % 5 = 0
           union all
           select '2.' || a.n, now() - a.n * interval '1 second' where a.n % 3 = 0
         ) v`,
      [seller.id],
    );
    // The buyers, their purchases (every seventh refunded) and their reviews of two in five
    // completed ones, a minute apart per agent, with a reply to every five-star review.
    await insertAccounts(target, 'many_buyer', 'many-agents.test', BUYERS);
    await sql(
      `with buyers as (
         select id, (regexp_match(email, '[0-9]+'))[1]::int as k from public.users where email like '%@many-agents.test'
       ), agents as (
         select id, price, (regexp_match(name, '[0-9]+$'))[1]::int as n from public.agents where seller_id = $1
       )
       insert into public.purchases (buyer_id, agent_id, list_price, amount, status)
       select b.id, a.id, a.price, a.price, case when (a.n + b.k) % 7 = 0 then 'refunded' else 'completed' end
         from buyers b join agents a on a.n % (b.k + 1) = 0`,
      [seller.id],
    );
    await sql(
      `insert into public.reviews (agent_id, buyer_id, rating, review_text, created_at)
       select p.agent_id, p.buyer_id, 1 + (a.n + b.k) % 5,
              case when a.n % 2 = 0 then 'Review ' || a.n || ' by buyer ' || b.k end,
              now() - (a.n + b.k) * interval '1 minute'
         from public.purchases p
         join (select id, (regexp_match(name, '[0-9]+$'))[1]::int as n from public.agents) a on a.id = p.agent_id
         join (select id, (regexp_match(email, '[0-9]+'))[1]::int as k from public.users) b on b.id = p.buyer_id
        where p.seller_id = $1 and p.status = 'completed' and a.n % 5 in (1, 3)`,
      [seller.id],
    );
    await sql(
      `insert into public.review_replies (review_id, reply_text)
       select r.id, 'Thank you, review ' || r.id from public.reviews r join public.agents a on a.id = r.agent_id
        where a.seller_id = $1 and r.rating = 5`,
      [seller.id],
    );
    // The seeding ran in this process (PGlite) for seconds: let the timers it held up close the
    // HTTP connections idle past their keep-alive, and the client see them closed, before the
    // next request (one turn of the event loop was not always enough on a busy machine: 'fetch
    // failed').
    await new Promise((resolve) => setTimeout(resolve, 250));
    sellerClient = await signedInClient(target, seller.email, PASSWORD);
  });
  afterAll(() => target?.close());

  it('My AI Agents pages through every agent, each with its sales, rating and latest version', async () => {
    // Timestamps as the Data API writes them (to_json), so they compare as text.
    const expected = await sql<Omit<SellerAgent, 'price' | 'avgRating'> & { price: string; avgRating: string | null }>(
      `select a.id, a.name, a.status, a.price::text as price,
              (select count(*)::int from public.purchases p where p.agent_id = a.id and p.status = 'completed') as sales,
              (select round(avg(r.rating), 2)::text from public.reviews r where r.agent_id = a.id) as "avgRating",
              (select count(*)::int from public.reviews r where r.agent_id = a.id) as "reviewCount",
              (select v.version from public.agent_versions v where v.agent_id = a.id
                order by v.created_at desc, v.version desc limit 1) as "lastVersion",
              (select to_json(max(v.created_at)) #>> '{}' from public.agent_versions v where v.agent_id = a.id)
                as "lastVersionAt",
              a.moderation_reason as "moderationReason"
         from public.agents a where a.seller_id = $1
        order by a.created_at desc, a.id`,
      [seller.id],
    );
    expect(expected).toHaveLength(AGENTS);
    const shown = await everyPage(agentsPage);

    const pageCount = Math.ceil(AGENTS / DASHBOARD_PAGE_SIZE);
    expect(shown.pages.map((page) => [page.page, page.pageCount, page.total])).toEqual(
      Array.from({ length: pageCount }, (_, index) => [index + 1, pageCount, AGENTS]),
    );
    expect(shown.pages.flatMap((page) => page.rows)).toEqual(
      expected.map((row) => ({
        ...row,
        price: Number(row.price),
        avgRating: row.avgRating === null ? null : Number(row.avgRating),
      })),
    );
    expect(shown.beyond).toEqual(shown.pages.at(-1));
    // The seeding reached what it means to: figures, versions and moderation past the 1,000th.
    const oldest = expected.slice(1_000);
    expect(oldest.some((row) => row.sales > 0 && row.reviewCount > 0 && row.lastVersion?.startsWith('2.'))).toBe(true);
    expect(oldest.some((row) => row.moderationReason !== null)).toBe(true);
  });

  it('Reviews pages through the reviews of every agent of the seller, newest first, and no one else’s', async () => {
    const expected = await sql<SellerReviewRow>(
      `select r.id, r.agent_id as "agentId", a.name as "agentName", u.username as author, r.rating,
              r.review_text as text, to_json(r.created_at) #>> '{}' as "createdAt",
              case when rr.review_id is null then null
                   else json_build_object('text', rr.reply_text, 'createdAt', rr.created_at, 'updatedAt', rr.updated_at)
              end as reply
         from public.reviews r
         join public.agents a on a.id = r.agent_id
         join public.users u on u.id = r.buyer_id
         left join public.review_replies rr on rr.review_id = r.id
        where a.seller_id = $1
        order by r.created_at desc, r.id desc`,
      [seller.id],
    );
    const [others] = await sql<{ n: number }>(
      `select count(*)::int as n from public.reviews r join public.agents a on a.id = r.agent_id where a.seller_id <> $1`,
      [seller.id],
    );
    expect(others!.n).toBeGreaterThan(0);
    expect(expected.length).toBeGreaterThan(2 * DASHBOARD_PAGE_SIZE);
    const shown = await everyPage(reviewsPage);

    const pageCount = Math.ceil(expected.length / DASHBOARD_PAGE_SIZE);
    expect(shown.pages.map((page) => [page.page, page.pageCount, page.total])).toEqual(
      Array.from({ length: pageCount }, (_, index) => [index + 1, pageCount, expected.length]),
    );
    expect(shown.pages.flatMap((page) => page.rows)).toEqual(expected);
    expect(shown.beyond).toEqual(shown.pages.at(-1));
    expect(expected.some((row) => row.reply !== null)).toBe(true);
  });

  it('a status change from a later page of My AI Agents comes back to that page', async () => {
    const page = 30;
    // A published agent of that page.
    const [agent] = await sql<{ id: string }>(
      `select id from (select id, status from public.agents where seller_id = $1
                         order by created_at desc, id offset $2 limit $3) a
        where status = 'published' limit 1`,
      [seller.id, (page - 1) * DASHBOARD_PAGE_SIZE, DASHBOARD_PAGE_SIZE],
    );
    const answer = await routeAnswer(
      agentsAction(
        argsOf(`/dashboard/agents?page=${page}`, 'dashboard/agents', {
          method: 'POST',
          body: new URLSearchParams({ intent: 'archive', agentId: agent!.id }),
        }),
      ),
    );
    expect(answer).toEqual({ status: 303, location: `/dashboard/agents?page=${page}` });
    // That page shows it archived, where it was.
    const shown = await agentsPage(page);
    expect(shown.rows.find((row) => row.id === agent!.id)?.status).toBe('archived');
  });

  it('Disputes finds every purchase whose agent or buyer matches, however many agents match', async () => {
    const admin = { viewer: DEMO_VIEWERS.admin, client: await signedInClient(target, DEMO_VIEWERS.admin.email) };
    const search = async (words: string, page = 1) =>
      (
        (await disputesLoader(
          argsOf(`/dashboard/disputes?q=${encodeURIComponent(words)}&page=${page}`, 'dashboard/disputes', {}, admin),
        )) as { sales: SalesPage }
      ).sales;
    /** The matching purchases' ids, newest first, by SQL over every purchase. */
    const matching = async (words: string) =>
      (
        await sql<{ id: string }>(
          `select p.id from public.purchases p
             left join public.agents a on a.id = p.agent_id
             left join public.users u on u.id = p.buyer_id
            where strpos(lower(a.name), lower($1)) > 0 or strpos(lower(u.username), lower($1)) > 0
            order by p.created_at desc, p.id desc`,
          [words],
        )
      ).map((row) => row.id);

    // Every agent of the seller matches: far more ids than a URL holds.
    const all = await matching('many agents');
    expect(all.length).toBeGreaterThan(1_000);
    const first = await search('many agents');
    expect([first.total, first.pageCount]).toEqual([all.length, Math.ceil(all.length / SALES_PAGE_SIZE)]);
    expect(first.rows.map((row) => row.id)).toEqual(all.slice(0, SALES_PAGE_SIZE));
    const last = await search('many agents', first.pageCount);
    expect(last.rows.map((row) => row.id)).toEqual(all.slice((first.pageCount - 1) * SALES_PAGE_SIZE));
    expect(last.rows.every((row) => row.agentName.startsWith('Many agents '))).toBe(true);

    // A buyer's username; an agent's whole name; text that means something to a filter.
    for (const words of ['many_buyer_2', 'Many agents 1050', 'a,b) or(x', '"quoted\\', '50%_']) {
      const expected = await matching(words);
      const found = await search(words);
      expect(found.total, words).toBe(expected.length);
      expect(
        found.rows.map((row) => row.id),
        words,
      ).toEqual(expected.slice(0, SALES_PAGE_SIZE));
    }
    expect((await search('many_buyer_2')).rows.every((row) => row.buyerUsername === 'many_buyer_2')).toBe(true);
  });

  it('Content Moderation’s review search finds the reviews of every matching agent', async () => {
    const admin = { viewer: DEMO_VIEWERS.admin, client: await signedInClient(target, DEMO_VIEWERS.admin.email) };
    const search = async (words: string, page = 1) =>
      (
        (await moderationLoader(
          argsOf(
            `/dashboard/moderation?rq=${encodeURIComponent(words)}&rpage=${page}`,
            'dashboard/moderation',
            {},
            admin,
          ),
        )) as { reviews: Page<ReviewRow> }
      ).reviews;
    const matching = async (words: string) =>
      (
        await sql<{ id: string }>(
          `select r.id from public.reviews r join public.agents a on a.id = r.agent_id
            where strpos(lower(r.review_text), lower($1)) > 0 or strpos(lower(a.name), lower($1)) > 0
            order by r.created_at desc, r.id`,
          [words],
        )
      ).map((row) => row.id);
    const [agents] = await sql<{ n: number }>(
      `select count(distinct r.agent_id)::int as n from public.reviews r join public.agents a on a.id = r.agent_id
        where a.name ilike 'many agents %'`,
    );
    expect(agents!.n).toBeGreaterThan(200); // more reviewed agents match than the old list held

    for (const words of ['many agents', 'by buyer 3', 'Many agents 1048']) {
      const expected = await matching(words);
      expect(expected.length, words).toBeGreaterThan(0);
      const first = await search(words);
      expect([first.total, first.pageCount], words).toEqual([
        expected.length,
        Math.max(1, Math.ceil(expected.length / DASHBOARD_PAGE_SIZE)),
      ]);
      expect(
        first.rows.map((row) => row.id),
        words,
      ).toEqual(expected.slice(0, DASHBOARD_PAGE_SIZE));
      const last = await search(words, first.pageCount);
      expect(
        last.rows.map((row) => row.id),
        words,
      ).toEqual(expected.slice((first.pageCount - 1) * DASHBOARD_PAGE_SIZE));
    }
  });
});

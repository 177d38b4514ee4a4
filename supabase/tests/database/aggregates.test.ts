/**
 * What the database works out for the app instead of the app over every row (migration
 * 20261129000300): the figures of the dashboard overview, Membership and the agent page
 * (buyer_figures, seller_overview_figures, platform_overview_figures, agent_rating_counts), each
 * counting the caller's own rows only, whatever else row-level security lets them read, and
 * agreeing with the same figures worked out from the tables by the database owner; and the
 * account deletion's delete_unsold_agents; and Platform Analytics' distinct active users over a
 * period (platform_active_users). Every check runs in a transaction that is rolled back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claims, Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, errorCodeAs, openSeededDatabase, rolledBack, rowsAs, serviceRole, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

type Tx = Parameters<Parameters<typeof rolledBack>[2]>[0];

const NEW_AGENT = `insert into public.agents (name, description, price, category, seller_id, status)
  values ('Figures Probe', 'd', 50, 'Sales', $1, 'published') returning id`;
const BUY = `insert into public.purchases
  (buyer_id, agent_id, list_price, discount_percent, discount_amount, amount, status, created_at)
  values ($1, $2, 50, $3, $4, 50 - $4::numeric, $5, coalesce($6::timestamptz, now())) returning id`;

/** `sql` as `claims` inside the test's transaction, then back to the service role. */
async function as<T>(tx: Tx, claims: Claims, sql: string, params: unknown[] = []): Promise<T[]> {
  const role = claims.role;
  await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
    role,
    JSON.stringify(claims),
  ]);
  try {
    return (await tx.query<T>(sql, params)).rows;
  } finally {
    await tx.query(`select set_config('role', 'service_role', true), set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify(serviceRole),
    ]);
  }
}

type BuyerFigures = {
  completed_count: number;
  agents_owned: number;
  total_spent: string;
  total_saved: string;
  completed_this_month: number;
};
const BUYER_COLUMNS = `completed_count::int, agents_owned::int, total_spent::text, total_saved::text,
  completed_this_month::int`;

/** buyer_figures as `id` sees it (UTC, now). */
const buyerFiguresAs = async (tx: Tx, id: string) =>
  (await as<BuyerFigures>(tx, user(id), `select ${BUYER_COLUMNS} from public.buyer_figures()`))[0]!;

/** The same figures from the purchases table, as the owner (no row-level security). */
const buyerFiguresOf = async (tx: Tx, id: string) =>
  (
    await tx.query<BuyerFigures>(
      `select count(*)::int as completed_count, count(distinct agent_id)::int as agents_owned,
              coalesce(sum(amount), 0)::text as total_spent, coalesce(sum(discount_amount), 0)::text as total_saved,
              (count(*) filter (where to_char(created_at at time zone 'UTC', 'YYYY-MM')
                                     = to_char(now() at time zone 'UTC', 'YYYY-MM')))::int as completed_this_month
         from public.purchases where buyer_id = $1 and status = 'completed'`,
      [id],
    )
  ).rows[0]!;

type SellerFigures = {
  published_agents: number;
  sales_count: number;
  revenue: string;
  review_count: number;
  rating_sum: number;
};
const sellerFiguresAs = async (tx: Tx, id: string) =>
  (
    await as<SellerFigures>(
      tx,
      user(id),
      `select published_agents::int, sales_count::int, revenue::text, review_count::int, rating_sum::int
         from public.seller_overview_figures()`,
    )
  )[0]!;
const sellerFiguresOf = async (tx: Tx, id: string) =>
  (
    await tx.query<SellerFigures>(
      `select (select count(*)::int from public.agents where seller_id = $1 and status = 'published') as published_agents,
              (select count(*)::int from public.purchases where seller_id = $1 and status = 'completed') as sales_count,
              (select coalesce(sum(amount), 0)::text from public.purchases
                where seller_id = $1 and status = 'completed') as revenue,
              (select count(*)::int from public.reviews
                where agent_id in (select id from public.agents where seller_id = $1)) as review_count,
              (select coalesce(sum(rating), 0)::int from public.reviews
                where agent_id in (select id from public.agents where seller_id = $1)) as rating_sum`,
      [id],
    )
  ).rows[0]!;

describe('buyer_figures', () => {
  it('sums up the caller’s own completed purchases as the buyer, nobody else’s', async () => {
    const seen = await rolledBack(db, serviceRole, async (tx) => {
      const before = {
        buyer: await buyerFiguresAs(tx, DEMO.buyer),
        other: await buyerFiguresAs(tx, DEMO.otherBuyer),
      };
      const expected = {
        buyer: await buyerFiguresOf(tx, DEMO.buyer),
        other: await buyerFiguresOf(tx, DEMO.otherBuyer),
      };
      // Another buyer: a completed purchase at a 10 % discount, a failed one, and one refunded.
      const agent = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller])).rows[0]!.id;
      await tx.query(BUY, [DEMO.otherBuyer, agent, 10, 5, 'completed', null]);
      await tx.query(BUY, [DEMO.otherBuyer, agent, 0, 0, 'failed', null]);
      const second = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller])).rows[0]!.id;
      const refunded = (await tx.query<{ id: string }>(BUY, [DEMO.otherBuyer, second, 0, 0, 'completed', null]))
        .rows[0]!.id;
      await tx.query(`update public.purchases set status = 'refunded' where id = $1`, [refunded]);
      // The demo seller buys an agent of another seller: theirs as a buyer, not their sales.
      const theirs = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.otherSeller])).rows[0]!.id;
      await tx.query(BUY, [DEMO.seller, theirs, 0, 0, 'completed', null]);
      return {
        before,
        expected,
        after: {
          buyer: await buyerFiguresAs(tx, DEMO.buyer),
          other: await buyerFiguresAs(tx, DEMO.otherBuyer),
          seller: await buyerFiguresAs(tx, DEMO.seller),
          admin: await buyerFiguresAs(tx, DEMO.admin),
        },
        expectedAfter: {
          other: await buyerFiguresOf(tx, DEMO.otherBuyer),
          seller: await buyerFiguresOf(tx, DEMO.seller),
          admin: await buyerFiguresOf(tx, DEMO.admin),
        },
        readable: {
          seller: (
            await as<{ n: number }>(tx, user(DEMO.seller), 'select count(*)::int as n from public.purchases')
          )[0]!.n,
          admin: (await as<{ n: number }>(tx, user(DEMO.admin), 'select count(*)::int as n from public.purchases'))[0]!
            .n,
        },
      };
    });

    // The demo buyer's six completed purchases of the seed.
    expect(seen.before.buyer).toEqual({ ...seen.expected.buyer, completed_count: 6 });
    expect(seen.before.other).toEqual(seen.expected.other);
    // The other buyer's purchases move their figures only: one more completed, 45.00 spent,
    // 5.00 saved, this month; the failed and refunded ones do not count.
    expect(seen.after.buyer).toEqual(seen.before.buyer);
    expect(seen.after.other).toEqual(seen.expectedAfter.other);
    expect(seen.after.other.completed_count).toBe(seen.before.other.completed_count + 1);
    expect(seen.after.other.completed_this_month).toBe(seen.before.other.completed_this_month + 1);
    expect(Number(seen.after.other.total_spent)).toBeCloseTo(Number(seen.before.other.total_spent) + 45, 2);
    expect(Number(seen.after.other.total_saved)).toBeCloseTo(Number(seen.before.other.total_saved) + 5, 2);
    // A seller reads their sales and an admin every purchase: neither counts them as theirs.
    expect(seen.readable.seller).toBeGreaterThan(seen.after.seller.completed_count);
    expect(seen.after.seller).toEqual(seen.expectedAfter.seller);
    expect(seen.after.seller.completed_count).toBe(1);
    expect(seen.readable.admin).toBeGreaterThan(seen.after.admin.completed_count);
    expect(seen.after.admin).toEqual(seen.expectedAfter.admin);
    expect(await errorCodeAs(db, anon, 'select * from public.buyer_figures()')).toBe('42501');
  });

  it('counts this month’s purchases in the time zone given, and refuses a zone it does not know', async () => {
    const months = await rolledBack(db, serviceRole, async (tx) => {
      const agent = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller])).rows[0]!.id;
      // 20:00 UTC on 31 May (a year no other purchase is dated in): 1 June in Kiritimati (UTC+14),
      // still May in Pago Pago (UTC−11).
      await tx.query(BUY, [DEMO.otherBuyer, agent, 0, 0, 'completed', '2031-05-31T20:00:00Z']);
      const at = async (zone: string, time: string) =>
        (
          await as<{ n: number }>(
            tx,
            user(DEMO.otherBuyer),
            'select completed_this_month::int as n from public.buyer_figures($1, $2)',
            [zone, time],
          )
        )[0]!.n;
      return {
        kiritimatiJune: await at('Pacific/Kiritimati', '2031-06-15T00:00:00Z'),
        pagoPagoJune: await at('Pacific/Pago_Pago', '2031-06-15T00:00:00Z'),
        pagoPagoMay: await at('Pacific/Pago_Pago', '2031-05-15T00:00:00Z'),
      };
    });
    expect(months).toEqual({ kiritimatiJune: 1, pagoPagoJune: 0, pagoPagoMay: 1 });
    expect(
      await errorCodeAs(db, user(DEMO.buyer), `select * from public.buyer_figures('Nowhere/Unknown', now())`),
    ).toBe('22023');
  });
});

describe('seller_overview_figures', () => {
  it('sums up the caller’s own agents, sales and reviews, nobody else’s', async () => {
    const seen = await rolledBack(db, serviceRole, async (tx) => {
      const before = {
        seller: await sellerFiguresAs(tx, DEMO.seller),
        other: await sellerFiguresAs(tx, DEMO.otherSeller),
      };
      const expected = {
        seller: await sellerFiguresOf(tx, DEMO.seller),
        other: await sellerFiguresOf(tx, DEMO.otherSeller),
      };
      // A sale of a new agent of the demo seller at a discount, a pending one, and a review of it.
      const agent = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller])).rows[0]!.id;
      await tx.query(BUY, [DEMO.otherBuyer, agent, 10, 5, 'completed', null]);
      const second = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller])).rows[0]!.id;
      await tx.query(BUY, [DEMO.otherBuyer, second, 0, 0, 'pending', null]);
      await tx.query(`insert into public.reviews (agent_id, buyer_id, rating) values ($1, $2, 2)`, [
        agent,
        DEMO.otherBuyer,
      ]);
      // A draft of the demo seller is theirs but not published.
      await tx.query(`update public.agents set status = 'draft' where id = $1`, [second]);
      return {
        before,
        expected,
        after: {
          seller: await sellerFiguresAs(tx, DEMO.seller),
          other: await sellerFiguresAs(tx, DEMO.otherSeller),
          admin: await sellerFiguresAs(tx, DEMO.admin),
          buyer: await sellerFiguresAs(tx, DEMO.otherBuyer),
        },
        expectedAfter: {
          seller: await sellerFiguresOf(tx, DEMO.seller),
          admin: await sellerFiguresOf(tx, DEMO.admin),
        },
      };
    });
    expect(seen.before.seller).toEqual(seen.expected.seller);
    expect(seen.before.seller.sales_count).toBeGreaterThan(0);
    expect(seen.before.other).toEqual(seen.expected.other);
    // One more published agent, one more sale (45.00; the pending one is no sale), one more review (2 stars).
    expect(seen.after.seller).toEqual(seen.expectedAfter.seller);
    expect(seen.after.seller).toMatchObject({
      published_agents: seen.before.seller.published_agents + 1,
      sales_count: seen.before.seller.sales_count + 1,
      review_count: seen.before.seller.review_count + 1,
      rating_sum: seen.before.seller.rating_sum + 2,
    });
    expect(Number(seen.after.seller.revenue)).toBeCloseTo(Number(seen.before.seller.revenue) + 45, 2);
    // Another seller's figures do not move; an admin (who reads every purchase) and a buyer get their own.
    expect(seen.after.other).toEqual(seen.before.other);
    expect(seen.after.admin).toEqual(seen.expectedAfter.admin);
    expect(seen.after.buyer).toEqual({
      published_agents: 0,
      sales_count: 0,
      revenue: '0',
      review_count: 0,
      rating_sum: 0,
    });
    expect(await errorCodeAs(db, anon, 'select * from public.seller_overview_figures()')).toBe('42501');
  });
});

describe('platform_overview_figures', () => {
  const PLATFORM = `select user_count::int, published_agents::int, revenue::text, purchases_since::int
    from public.platform_overview_figures($1)`;

  it('gives an administrator the whole platform’s figures', async () => {
    const since = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const [figures] = await rowsAs(db, user(DEMO.admin), PLATFORM, [since]);
    const [expected] = await rowsAs(
      db,
      serviceRole,
      `select (select count(*)::int from public.users) as user_count,
              (select count(*)::int from public.agents where status = 'published') as published_agents,
              (select coalesce(sum(amount), 0)::text from public.purchases where status = 'completed') as revenue,
              (select count(*)::int from public.purchases
                where status = 'completed' and created_at >= $1) as purchases_since`,
      [since],
    );
    expect(figures).toEqual(expected);
    expect((figures as { user_count: number }).user_count).toBeGreaterThan(3);
  });

  it('refuses everyone else', async () => {
    for (const id of [DEMO.buyer, DEMO.seller]) {
      expect(await errorCodeAs(db, user(id), PLATFORM, [new Date().toISOString()])).toBe('42501');
    }
    expect(await errorCodeAs(db, anon, PLATFORM, [new Date().toISOString()])).toBe('42501');
  });
});

describe('platform_active_users (migration 20261205000100)', () => {
  /** Who was active since the first of the last 30 UTC days, worked out from the tables by the owner. */
  const ACTIVITY_OF = `with since as (select public.analytics_first_day(30) as d),
    activity as (
      select (p.created_at at time zone 'utc')::date as day, p.buyer_id as who from public.purchases p, since
        where p.created_at >= since.d::timestamp at time zone 'utc'
      union select (r.created_at at time zone 'utc')::date, r.buyer_id from public.reviews r, since
        where r.created_at >= since.d::timestamp at time zone 'utc'
      union select (dl.created_at at time zone 'utc')::date, dl.buyer_id from public.downloads dl, since
        where dl.created_at >= since.d::timestamp at time zone 'utc'
      union select v.day, v.visitor_id from public.agent_views v, since where v.signed_in and v.day >= since.d
    )`;

  it('counts each user active over the period once, where the days count them once a day', async () => {
    const seen = await rolledBack(db, serviceRole, async (tx) => {
      // The buyer comes back on three days, the other buyer on one (any purchase counts as activity).
      const days = [1, 3, 9].map((ago) => new Date(Date.now() - ago * 86_400_000).toISOString());
      for (const [index, at] of days.entries()) {
        const agent = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller])).rows[0]!.id;
        await tx.query(BUY, [DEMO.buyer, agent, 0, 0, index === 0 ? 'completed' : 'failed', at]);
        if (index === 0) await tx.query(BUY, [DEMO.otherBuyer, agent, 0, 0, 'completed', at]);
      }
      const admin = user(DEMO.admin);
      const [period] = await as<{ n: number }>(tx, admin, 'select public.platform_active_users(30)::int as n');
      const daily = await as<{ day: string; n: number }>(
        tx,
        admin,
        'select day::text, active_users::int as n from public.platform_daily_figures(30) order by day',
      );
      const expected = (
        await tx.query<{ period: number; users: number; buyer_days: number }>(
          `${ACTIVITY_OF}
           select (select count(distinct who)::int from activity) as period,
                  (select count(*)::int from public.users) as users,
                  (select count(distinct day)::int from activity where who = $1) as buyer_days`,
          [DEMO.buyer],
        )
      ).rows[0]!;
      const expectedDaily = (
        await tx.query<{ day: string; n: number }>(
          `${ACTIVITY_OF} select day::text, count(distinct who)::int as n from activity group by day`,
        )
      ).rows;
      return { period: period!.n, daily, expected, expectedDaily };
    });
    expect(seen.period).toBe(seen.expected.period);
    expect(seen.period).toBeLessThanOrEqual(seen.expected.users);
    // The days add the buyer up once per day they were active; the period counts them once.
    expect(seen.expected.buyer_days).toBeGreaterThanOrEqual(3);
    const sumOfDays = seen.daily.reduce((sum, day) => sum + day.n, 0);
    expect(sumOfDays).toBeGreaterThanOrEqual(seen.period + seen.expected.buyer_days - 1);
    // The days read the same activity (platform_activity): each day's figure as the owner counts it.
    expect(seen.daily).toHaveLength(30);
    for (const day of seen.daily) {
      expect(day.n, day.day).toBe(seen.expectedDaily.find((row) => row.day === day.day)?.n ?? 0);
    }
  });

  it('refuses everyone but an administrator, as platform_activity does', async () => {
    for (const claims of [user(DEMO.buyer), user(DEMO.seller), anon]) {
      expect(await errorCodeAs(db, claims, 'select public.platform_active_users(30)')).toBe('42501');
      expect(await errorCodeAs(db, claims, 'select * from public.platform_activity(current_date)')).toBe('42501');
    }
  });
});

describe('agent_rating_counts', () => {
  it('counts the agent’s reviews per rating, for anyone, and only that agent’s', async () => {
    const seen = await rolledBack(db, serviceRole, async (tx) => {
      const agent = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller])).rows[0]!.id;
      const other = (await tx.query<{ id: string }>(NEW_AGENT, [DEMO.seller])).rows[0]!.id;
      for (const [buyer, rating] of [
        [DEMO.buyer, 5],
        [DEMO.otherBuyer, 5],
        [DEMO.admin, 2],
      ] as const) {
        await tx.query(BUY, [buyer, agent, 0, 0, 'completed', null]);
        await tx.query(`insert into public.reviews (agent_id, buyer_id, rating) values ($1, $2, $3)`, [
          agent,
          buyer,
          rating,
        ]);
      }
      await tx.query(BUY, [DEMO.buyer, other, 0, 0, 'completed', null]);
      await tx.query(`insert into public.reviews (agent_id, buyer_id, rating) values ($1, $2, 1)`, [other, DEMO.buyer]);
      const counts = (claims: Claims) =>
        as<{ rating: number; n: number }>(
          tx,
          claims,
          'select rating, review_count::int as n from public.agent_rating_counts($1)',
          [agent],
        );
      return { anon: await counts(anon), buyer: await counts(user(DEMO.buyer)) };
    });
    expect(seen.anon).toEqual([
      { rating: 2, n: 1 },
      { rating: 5, n: 2 },
    ]);
    expect(seen.buyer).toEqual(seen.anon);
  });
});

describe('delete_unsold_agents', () => {
  it('deletes the seller’s agents nobody bought, keeps the sold ones and answers their ids; service role only', async () => {
    const seen = await rolledBack(db, serviceRole, async (tx) => {
      const agent = async (seller: string) => (await tx.query<{ id: string }>(NEW_AGENT, [seller])).rows[0]!.id;
      const [sold, failedOnly, unsold, draft, otherSellers] = [
        await agent(DEMO.seller),
        await agent(DEMO.seller),
        await agent(DEMO.seller),
        await agent(DEMO.seller),
        await agent(DEMO.otherSeller),
      ];
      await tx.query(BUY, [DEMO.buyer, sold, 0, 0, 'completed', null]);
      // A failed purchase is still a purchase: the agent stays (its record is the buyer's).
      await tx.query(BUY, [DEMO.buyer, failedOnly, 0, 0, 'failed', null]);
      await tx.query(`update public.agents set status = 'draft' where id = $1`, [draft]);
      const expectedKept = (
        await tx.query<{ id: string }>(
          `select a.id from public.agents a
            where a.seller_id = $1 and exists (select 1 from public.purchases p where p.agent_id = a.id)
            order by a.id`,
          [DEMO.seller],
        )
      ).rows.map((row) => row.id);
      const refused = {
        seller: await codeOf(tx, user(DEMO.seller), DEMO.seller),
        admin: await codeOf(tx, user(DEMO.admin), DEMO.seller),
      };
      const kept = (await tx.query<{ kept: string[] }>('select public.delete_unsold_agents($1) as kept', [DEMO.seller]))
        .rows[0]!.kept;
      const left = (
        await tx.query<{ id: string }>('select id from public.agents where seller_id = $1 order by id', [DEMO.seller])
      ).rows.map((row) => row.id);
      const others = (
        await tx.query<{ n: number }>('select count(*)::int as n from public.agents where id = $1', [otherSellers])
      ).rows[0]!.n;
      return { sold, failedOnly, unsold, draft, expectedKept, refused, kept, left, others };
    });
    expect(seen.refused).toEqual({ seller: '42501', admin: '42501' });
    expect(seen.kept).toEqual(seen.expectedKept);
    expect(seen.left).toEqual(seen.expectedKept);
    expect(seen.kept).toEqual(expect.arrayContaining([seen.sold, seen.failedOnly]));
    expect(seen.kept).not.toContain(seen.unsold);
    expect(seen.kept).not.toContain(seen.draft);
    expect(seen.others).toBe(1);
    expect(await errorCodeAs(db, anon, `select public.delete_unsold_agents('${DEMO.seller}')`)).toBe('42501');
  });
});

/** The SQLSTATE of delete_unsold_agents called as `claims` (in a savepoint: undone, role included). */
async function codeOf(tx: Tx, claims: Claims, seller: string): Promise<string | undefined> {
  await tx.query('savepoint attempt');
  try {
    await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
      claims.role,
      JSON.stringify(claims),
    ]);
    await tx.query('select public.delete_unsold_agents($1)', [seller]);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  } finally {
    await tx.query('rollback to savepoint attempt');
  }
}

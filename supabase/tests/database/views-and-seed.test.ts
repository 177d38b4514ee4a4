import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import { TIERS } from '../../../app/lib/membership';
import { DEMO, anon, openSeededDatabase, rolledBack, rowsAs, seedAgentId, serviceRole, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

// The fields of docs/product.md's data, in its order.
const AGENT_COLUMNS = [
  'id',
  'name',
  'description',
  'price',
  'category',
  'thumbnail_url',
  'images',
  'features',
  'seller_id',
  'status',
  'created_at',
  'updated_at',
  'seller_username',
  'seller_avatar',
  'avg_rating',
  'review_count',
  'purchase_count',
  // Migration 20261126000200: when the last version shipped.
  'last_version_at',
  // Migration 20261127000400: the seller's profile visibility, so a card knows
  // whether to link the seller's name.
  'seller_visibility',
  // How a seller is named (display name where privacy shows it), on cards and the agent page.
  'seller_display_name',
];
const PURCHASE_COLUMNS = [
  'id',
  'buyer_id',
  'agent_id',
  'seller_id',
  'amount',
  'status',
  'payment_intent_id',
  'created_at',
  'updated_at',
  'agent_name',
  'agent_description',
  'agent_thumbnail',
  'agent_category',
  'seller_username',
  'user_rating',
  'user_review',
];
/** What the buying issue adds after the specification's columns: the real figures it shows. */
const PURCHASE_FIGURE_COLUMNS = [
  'list_price',
  'discount_percent',
  'discount_amount',
  'payment_provider',
  'status_reason',
  'refunded_at',
  'download_count',
  'last_downloaded_at',
  'seller_is_online',
  'seller_response_time_hours',
  'seller_display_name',
];
const CATEGORIES = ['Marketing', 'Data Analysis', 'Content Creation', 'Sales', 'Customer Support', 'Finance'];

async function columnsOf(view: string): Promise<string[]> {
  return rolledBack(db, anon, async (tx) =>
    (await tx.query(`select * from public.${view} limit 0`)).fields.map((f) => f.name),
  );
}

describe('agents_with_stats', () => {
  it('has exactly the specified columns', async () => {
    expect([...(await columnsOf('agents_with_stats'))].sort()).toEqual([...AGENT_COLUMNS].sort());
  });

  it('gives anonymous readers the same aggregates as the raw tables', async () => {
    type Stats = {
      id: string;
      avg_rating: string | null;
      review_count: number;
      purchase_count: number;
      seller_username: string;
    };
    const viewRows = await rowsAs<Stats>(
      db,
      anon,
      'select id, avg_rating::text, review_count::int, purchase_count::int, seller_username from public.agents_with_stats',
    );
    const truth = await rowsAs<Stats>(
      db,
      serviceRole,
      `select a.id,
              round(avg(r.rating), 2)::numeric(3, 2)::text as avg_rating, -- NULL without reviews (ADR 054)
              (select count(*)::int from public.reviews r2 where r2.agent_id = a.id) as review_count,
              (select count(*)::int from public.purchases p where p.agent_id = a.id and p.status = 'completed') as purchase_count,
              u.username as seller_username
       from public.agents a
       join public.users u on u.id = a.seller_id
       left join public.reviews r on r.agent_id = a.id
       where a.status = 'published'
       group by a.id, u.username`,
    );
    expect(viewRows).toHaveLength(72);
    const byId = new Map(truth.map((row) => [row.id, row]));
    for (const row of viewRows) expect(row).toEqual(byId.get(row.id));
    expect(viewRows.some((row) => row.review_count > 0 && row.purchase_count > 0)).toBe(true);
    expect(viewRows.some((row) => row.review_count === 0 && row.avg_rating === null)).toBe(true);
  });

  it('returns numbers and arrays in the agent shape', async () => {
    const [row] = await rowsAs<Record<string, unknown>>(
      db,
      anon,
      'select * from public.agents_with_stats where id = $1',
      [seedAgentId(1)],
    );
    expect(row).toMatchObject({
      name: 'CampaignPilot',
      category: 'Marketing',
      seller_username: 'demo_seller',
      status: 'published',
      thumbnail_url: '/artwork/marketing/000000000001/CampaignPilot.svg',
    });
    expect(Array.isArray(row?.features)).toBe(true);
    expect(Array.isArray(row?.images)).toBe(true);
  });
});

describe('user_purchase_history', () => {
  it('has the specified columns, then the real purchase figures', async () => {
    expect(await columnsOf('user_purchase_history')).toEqual([...PURCHASE_COLUMNS, ...PURCHASE_FIGURE_COLUMNS]);
  });

  it("shows the demo buyer's purchases with agent, seller and their own review", async () => {
    type Row = {
      agent_name: string;
      status: string;
      seller_username: string;
      user_rating: number | null;
      buyer_id: string;
    };
    const rows = await rowsAs<Row>(
      db,
      user(DEMO.buyer),
      'select agent_name, status, seller_username, user_rating, buyer_id from public.user_purchase_history where buyer_id = $1 order by created_at desc',
      [DEMO.buyer],
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['completed', 'pending', 'failed', 'refunded']));
    expect(rows.every((row) => row.agent_name && row.seller_username)).toBe(true);
    expect(rows.find((row) => row.agent_name === 'CampaignPilot')).toMatchObject({
      user_rating: 5,
      seller_username: 'demo_seller',
    });
    expect(rows.filter((row) => row.user_rating !== null).length).toBe(3);
    expect(await rowsAs(db, anon, 'select id from public.user_purchase_history')).toEqual([]);
    const others = await rowsAs(
      db,
      user(DEMO.otherBuyer),
      'select id from public.user_purchase_history where buyer_id = $1',
      [DEMO.buyer],
    );
    expect(others).toEqual([]);
  });
});

describe('category_counts', () => {
  it('counts published agents per category under filters', async () => {
    const all = await rowsAs<{ category: string; agent_count: number }>(
      db,
      anon,
      'select category, agent_count::int from public.category_counts()',
    );
    expect(all).toEqual(CATEGORIES.map((category) => ({ category, agent_count: 12 })));
    const filtered = await rowsAs<{ category: string; agent_count: number }>(
      db,
      anon,
      "select category, agent_count::int from public.category_counts(search => 'FORECAST', max_price => 300)",
    );
    const truth = await rowsAs<{ category: string; agent_count: number }>(
      db,
      serviceRole,
      `select category, count(*)::int as agent_count from public.agents
       where status = 'published'
         and concat_ws(' ', name, description, category, array_to_string(features, ' ')) ~* '\\mforecast'
       group by category`,
    );
    expect(filtered.filter((row) => row.agent_count > 0)).toEqual(
      expect.arrayContaining(truth.map((row) => expect.objectContaining(row))),
    );
    expect(filtered.reduce((sum, row) => sum + row.agent_count, 0)).toBe(
      truth.reduce((sum, row) => sum + row.agent_count, 0),
    );
  });

  it('applies price and rating together, and lists every category even when none matches', async () => {
    const counts = await rowsAs<{ category: string; agent_count: number }>(
      db,
      anon,
      'select category, agent_count::int from public.category_counts(max_price => 100, min_rating => 4)',
    );
    const truth = await rowsAs<{ category: string; agent_count: number }>(
      db,
      serviceRole,
      `select a.category, count(*)::int as agent_count from public.agents a
       join public.agent_stats s on s.agent_id = a.id
       where a.status = 'published' and a.price <= 100 and s.avg_rating >= 4 group by a.category`,
    );
    expect(truth.length).toBeGreaterThan(0);
    expect(counts).toEqual(
      CATEGORIES.map((category) => ({
        category,
        agent_count: truth.find((row) => row.category === category)?.agent_count ?? 0,
      })),
    );
    const none = await rowsAs<{ category: string; agent_count: number }>(
      db,
      anon,
      "select category, agent_count::int from public.category_counts(search => 'qwzx vbnmk')",
    );
    expect(none).toEqual(CATEGORIES.map((category) => ({ category, agent_count: 0 })));
  });
});

describe('seed', () => {
  it('has at least 60 published agents over the six categories with prices in [19, 299]', async () => {
    const [row] = await rowsAs<{ count: number; categories: number; min: string; max: string }>(
      db,
      anon,
      `select count(*)::int as count, count(distinct category)::int as categories, min(price)::text as min, max(price)::text as max
       from public.agents_with_stats where status = 'published'`,
    );
    expect(row?.count).toBeGreaterThanOrEqual(60);
    expect(row?.categories).toBe(6);
    expect(Number(row?.min)).toBeGreaterThanOrEqual(19);
    expect(Number(row?.max)).toBeLessThanOrEqual(299);
  });

  it('has the demo accounts with their roles and a bcrypt hash of demo-password', async () => {
    // auth.* is not granted to the API roles: read it as the migration role.
    const { rows } = await db.query<{ email: string; username: string; user_type: string; ok: boolean }>(
      `select u.email, p.username, p.user_type, u.encrypted_password = extensions.crypt('demo-password', u.encrypted_password) as ok
       from auth.users u join public.users p on p.id = u.id where u.email in ('buyer@demo.test', 'seller@demo.test', 'admin@demo.test')
       order by u.email`,
    );
    expect(rows).toEqual([
      { email: 'admin@demo.test', username: 'ada_lovelace', user_type: 'admin', ok: true },
      { email: 'buyer@demo.test', username: 'demo_buyer', user_type: 'buyer', ok: true },
      { email: 'seller@demo.test', username: 'demo_seller', user_type: 'seller', ok: true },
    ]);
    const { rows: identities } = await db.query<{ count: number }>(
      "select count(*)::int as count from auth.identities i join auth.users u on u.id = i.user_id where i.provider = 'email' and i.provider_id = u.id::text",
    );
    const { rows: users } = await db.query<{ count: number }>('select count(*)::int as count from auth.users');
    expect(identities).toEqual(users);
    const sellers = await rowsAs<{ count: number }>(
      db,
      serviceRole,
      "select count(*)::int as count from public.users where user_type = 'seller'",
    );
    expect(sellers[0]?.count).toBeGreaterThanOrEqual(6);
  });

  it('gives the demo buyer purchases in all four statuses and the demo seller sales', async () => {
    const statuses = await rowsAs<{ status: string }>(
      db,
      user(DEMO.buyer),
      'select distinct status from public.purchases where buyer_id = $1 order by status',
      [DEMO.buyer],
    );
    expect(statuses.map((row) => row.status)).toEqual(['completed', 'failed', 'pending', 'refunded']);
    const sales = await rowsAs<{ count: number }>(
      db,
      user(DEMO.seller),
      "select count(*)::int as count from public.purchases where seller_id = $1 and status = 'completed'",
      [DEMO.seller],
    );
    expect(sales[0]?.count).toBeGreaterThan(5);
  });

  it('has reviews only from buyers with a completed purchase, mostly 4 and 5 stars', async () => {
    const [row] = await rowsAs<{ orphans: number; total: number; high: number; ratings: number }>(
      db,
      serviceRole,
      `select
         count(*) filter (where not exists (
           select 1 from public.purchases p where p.buyer_id = r.buyer_id and p.agent_id = r.agent_id and p.status = 'completed'
         ))::int as orphans,
         count(*)::int as total,
         count(*) filter (where rating >= 4)::int as high,
         count(distinct rating)::int as ratings
       from public.reviews r`,
    );
    expect(row?.orphans).toBe(0);
    expect(row?.total).toBeGreaterThan(30);
    expect(row?.ratings).toBe(5);
    expect(row!.high / row!.total).toBeGreaterThan(0.6);
  });

  it('gives every member their tier’s price on each purchase since they subscribed, and a charge for each month', async () => {
    const discountOf = new Map<string, number>(TIERS.map((tier) => [tier.id, tier.discountPercent]));
    const monthlyOf = new Map<string, number>(TIERS.map((tier) => [tier.id, tier.monthlyPrice]));
    const purchases = await rowsAs<{
      tier: string;
      since: boolean;
      list_price: string;
      discount_percent: number;
      discount_amount: string;
      amount: string;
    }>(
      db,
      serviceRole,
      `select s.tier, p.created_at >= s.current_period_start as since, p.list_price::text, p.discount_percent,
              p.discount_amount::text, p.amount::text
       from public.purchases p join public.subscriptions s on s.user_id = p.buyer_id`,
    );
    // Not vacuous: members bought before and after they subscribed.
    expect(purchases.filter((row) => row.since).length).toBeGreaterThan(0);
    expect(purchases.filter((row) => !row.since).length).toBeGreaterThan(0);
    for (const row of purchases) {
      const percent = row.since ? discountOf.get(row.tier) : 0;
      const listCents = Math.round(Number(row.list_price) * 100);
      const discountCents = Math.round((listCents * percent!) / 100);
      expect(row).toMatchObject({ discount_percent: percent });
      expect(Math.round(Number(row.discount_amount) * 100)).toBe(discountCents);
      expect(Math.round(Number(row.amount) * 100)).toBe(listCents - discountCents);
    }
    // Every purchase of a buyer who is no member is at the list price.
    const others = await rowsAs<{ discounted: number }>(
      db,
      serviceRole,
      `select count(*)::int as discounted from public.purchases p
       where p.discount_amount <> 0 and not exists (select 1 from public.subscriptions s where s.user_id = p.buyer_id)`,
    );
    expect(others[0]?.discounted).toBe(0);

    // One paid charge at the tier's monthly price for every month begun since the subscription started.
    const charges = await rowsAs<{ tier: string; months: number; charges: number; amounts: string[] }>(
      db,
      serviceRole,
      `select s.tier,
              (select count(*)::int from generate_series(s.created_at, now(), interval '1 month')) as months,
              count(c.id)::int as charges,
              coalesce(array_agg(c.amount::text) filter (where c.id is not null), '{}') as amounts
       from public.subscriptions s
       left join public.subscription_charges c on c.subscription_id = s.id and c.status = 'paid'
       group by s.id`,
    );
    expect(charges.length).toBeGreaterThan(0);
    for (const row of charges) {
      expect(row.charges).toBe(row.months);
      expect(row.amounts.map(Number)).toEqual(Array(row.months).fill(monthlyOf.get(row.tier)));
    }
  });
});

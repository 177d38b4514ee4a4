/**
 * Becoming a seller and storefronts in the database (migration 20261126000100): the owner edits
 * their display name, pitch and response time but never their account type or the moment the
 * seller terms were accepted; public_profiles shows a seller's business details to those who may
 * see the profile (members only means signed-in viewers); the storefront's figures come from the seller's published agents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, errorCodeAs, openSeededDatabase, rolledBack, rowsAs, serviceRole, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

const buyer = user(DEMO.buyer);

describe('the seller columns of public.users', () => {
  it('lets the owner set a display name, a pitch and a response time', async () => {
    const row = await rolledBack(db, buyer, async (tx) => {
      await tx.query(
        `update public.users set display_name = 'Dana Builds', seller_pitch = 'Agents for shops.', response_time_hours = 8
         where id = $1`,
        [DEMO.buyer],
      );
      return (
        await tx.query('select display_name, seller_pitch, response_time_hours from public.users where id = $1', [
          DEMO.buyer,
        ])
      ).rows[0];
    });
    expect(row).toEqual({ display_name: 'Dana Builds', seller_pitch: 'Agents for shops.', response_time_hours: 8 });
  });

  it('refuses a buyer who sets their own account type', async () => {
    expect(
      await errorCodeAs(db, buyer, `update public.users set user_type = 'seller' where id = $1`, [DEMO.buyer]),
    ).toBe('42501');
  });

  it('keeps the seller terms date out of the owner’s hands, and lets the service role set it with the role', async () => {
    const own = await rolledBack(db, buyer, async (tx) => {
      await tx.query('update public.users set seller_terms_accepted_at = now() where id = $1', [DEMO.buyer]);
      return (await tx.query('select seller_terms_accepted_at from public.users where id = $1', [DEMO.buyer])).rows[0];
    });
    expect(own).toEqual({ seller_terms_accepted_at: null });

    const trusted = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(
        `update public.users set user_type = 'seller', seller_terms_accepted_at = now(), display_name = 'Dana'
         where id = $1`,
        [DEMO.buyer],
      );
      return (
        await tx.query<{ user_type: string; accepted: boolean }>(
          'select user_type, seller_terms_accepted_at is not null as accepted from public.users where id = $1',
          [DEMO.buyer],
        )
      ).rows[0];
    });
    expect(trusted).toEqual({ user_type: 'seller', accepted: true });
  });

  it.each([
    ['an empty display name', `display_name = '  '`],
    ['a display name of 61 characters', `display_name = repeat('a', 61)`],
    ['a pitch of 501 characters', `seller_pitch = repeat('a', 501)`],
    ['a response time of 0 hours', 'response_time_hours = 0'],
  ])('refuses %s', async (_, assignment) => {
    expect(await errorCodeAs(db, buyer, `update public.users set ${assignment} where id = $1`, [DEMO.buyer])).toBe(
      '23514',
    );
  });
});

describe('public_profiles', () => {
  const SET = `update public.users set display_name = 'Sam''s Agents', seller_pitch = 'Practical agents.' where id = $1`;
  const visibility = (value: string) =>
    `update public.user_settings set profile_visibility = '${value}' where user_id = $1`;
  const READ = `select display_name, seller_pitch, first_name from public.public_profiles where id = '${DEMO.seller}'`;

  /** What `claims` read of demo_seller's profile after `setup` ran as the service role. */
  async function sellerProfileAs(claims: Parameters<typeof rowsAs>[1], profileVisibility: string) {
    return rolledBack(db, serviceRole, async (tx) => {
      await tx.query(SET, [DEMO.seller]);
      await tx.query(visibility(profileVisibility), [DEMO.seller]);
      await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
        claims.role,
        JSON.stringify(claims),
      ]);
      return (await tx.query(READ)).rows[0];
    });
  }

  it('shows a members-only seller’s display name and pitch to signed-in viewers only', async () => {
    expect(await sellerProfileAs(anon, 'members')).toEqual({
      display_name: null,
      seller_pitch: null,
      first_name: null,
    });
    expect(await sellerProfileAs(buyer, 'members')).toMatchObject({
      display_name: "Sam's Agents",
      seller_pitch: 'Practical agents.',
    });
    expect(await sellerProfileAs(anon, 'public')).toMatchObject({ display_name: "Sam's Agents" });
  });

  it('hides them when the seller’s profile is private, except from the seller', async () => {
    expect(await sellerProfileAs(anon, 'private')).toEqual({
      display_name: null,
      seller_pitch: null,
      first_name: null,
    });
    expect(await sellerProfileAs(buyer, 'private')).toEqual({
      display_name: null,
      seller_pitch: null,
      first_name: null,
    });
    expect(await sellerProfileAs(user(DEMO.seller), 'private')).toMatchObject({ display_name: "Sam's Agents" });
  });
});

describe('seller_storefront_figures', () => {
  it('sums the completed sales and weights the rating by reviews over the published agents only', async () => {
    const [figures] = await rowsAs<Record<string, string | null>>(
      db,
      anon,
      'select * from public.seller_storefront_figures($1)',
      [DEMO.seller],
    );
    const [expected] = await rowsAs<Record<string, string | null>>(
      db,
      serviceRole,
      `select count(*)::text as agent_count, sum(s.purchase_count)::text as total_sales,
              sum(s.review_count)::text as review_count,
              round(sum(s.avg_rating * s.review_count) / nullif(sum(s.review_count), 0), 2)::text as avg_rating
       from public.agents a join public.agent_stats s on s.agent_id = a.id
       where a.seller_id = $1 and a.status = 'published'`,
      [DEMO.seller],
    );
    expect(figures).toEqual({
      agent_count: Number(expected!.agent_count),
      total_sales: Number(expected!.total_sales),
      review_count: Number(expected!.review_count),
      avg_rating: expected!.avg_rating,
    });
    // demo_seller has 12 published agents (and a draft and an archived one, not counted).
    expect(figures!.agent_count).toBe(12);
  });

  it('is all zero (and no rating) for a user without published agents', async () => {
    const [figures] = await rowsAs(db, anon, 'select * from public.seller_storefront_figures($1)', [DEMO.buyer]);
    expect(figures).toEqual({ agent_count: 0, total_sales: 0, review_count: 0, avg_rating: null });
  });
});

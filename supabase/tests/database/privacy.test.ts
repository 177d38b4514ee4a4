/**
 * Privacy settings in the database (migration 20261127000400): public.public_profiles is the one
 * place another user's profile is read, and it applies the owner's settings for every viewer:
 * public for everyone, members only for signed-in users, private for the owner alone; the
 * username always shows (listings name their seller), the picture, names, seller details and
 * contact details only to those who may see the profile, email and phone only when shown. The
 * catalogue view carries the seller's visibility and hides the picture the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, openSeededDatabase, rolledBack, serviceRole, user, seedAgentId } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

type Claims = Parameters<typeof rolledBack>[1];
type Visibility = 'public' | 'members' | 'private';

/** demo_seller's own upload (a profile picture is one, migration 20261130000500). */
const PICTURE = `/storage/v1/object/public/avatars/${DEMO.seller}/a.png`;

const READ = `select username, profile_image_url, display_name, seller_pitch, location, email, phone, visibility, visible
  from public.public_profiles where id = $1`;

/** What `viewer` reads of demo_seller after the seller chose `visibility`, showing email and phone as given. */
async function sellerAs(viewer: Claims, visibility: Visibility, show = { email: true, phone: true }) {
  return rolledBack(db, serviceRole, async (tx) => {
    await tx.query(
      `update public.users set profile_image_url = $2, display_name = 'Sam', seller_pitch = 'Hi',
         location = 'Berlin', phone = '+49 30 1234' where id = $1`,
      [DEMO.seller, PICTURE],
    );
    await tx.query(
      'update public.user_settings set profile_visibility = $2, show_email = $3, show_phone = $4 where user_id = $1',
      [DEMO.seller, visibility, show.email, show.phone],
    );
    await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
      viewer.role,
      JSON.stringify(viewer),
    ]);
    const profile = (await tx.query<Record<string, unknown>>(READ, [DEMO.seller])).rows[0];
    const card = (
      await tx.query<Record<string, unknown>>(
        'select seller_username, seller_avatar, seller_visibility from public.agents_with_stats where id = $1',
        [seedAgentId(1)],
      )
    ).rows[0];
    return { profile, card };
  });
}

const FULL = {
  username: 'demo_seller',
  profile_image_url: PICTURE,
  display_name: 'Sam',
  seller_pitch: 'Hi',
  location: 'Berlin',
  email: 'seller@demo.test',
  phone: '+49 30 1234',
  visible: true,
};
const HIDDEN = {
  username: 'demo_seller',
  profile_image_url: null,
  display_name: null,
  seller_pitch: null,
  location: null,
  email: null,
  phone: null,
  visible: false,
};
const member = user(DEMO.buyer);
const owner = user(DEMO.seller);

describe('public_profiles applies the profile visibility', () => {
  it.each<[string, Visibility, Claims, boolean]>([
    ['public, signed out', 'public', anon, true],
    ['public, another member', 'public', member, true],
    ['members only, signed out', 'members', anon, false],
    ['members only, another member', 'members', member, true],
    ['private, signed out', 'private', anon, false],
    ['private, another member', 'private', member, false],
    ['private, the owner', 'private', owner, true],
  ])('%s', async (_, visibility, viewer, visible) => {
    const { profile, card } = await sellerAs(viewer, visibility);
    expect(profile).toEqual({ ...(visible ? FULL : HIDDEN), visibility });
    // The card names the seller either way; the picture follows the profile.
    expect(card).toEqual({
      seller_username: 'demo_seller',
      seller_avatar: visible ? PICTURE : null,
      seller_visibility: visibility,
    });
  });
});

describe('email and phone', () => {
  it('are shown to others only when the owner shows them, each on its own', async () => {
    expect((await sellerAs(member, 'public', { email: false, phone: false })).profile).toMatchObject({
      email: null,
      phone: null,
    });
    expect((await sellerAs(anon, 'public', { email: true, phone: false })).profile).toMatchObject({
      email: 'seller@demo.test',
      phone: null,
    });
    expect((await sellerAs(member, 'public', { email: false, phone: true })).profile).toMatchObject({
      email: null,
      phone: '+49 30 1234',
    });
  });

  it('are always the owner’s own', async () => {
    expect((await sellerAs(owner, 'private', { email: false, phone: false })).profile).toMatchObject({
      email: 'seller@demo.test',
      phone: '+49 30 1234',
    });
  });

  it('stay hidden with the profile, even when shown', async () => {
    expect((await sellerAs(anon, 'members')).profile).toMatchObject({ email: null, phone: null });
  });
});

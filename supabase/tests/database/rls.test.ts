import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import {
  DEMO,
  affectedAs,
  anon,
  errorCodeAs,
  openSeededDatabase,
  rolledBack,
  rolledBackTransaction,
  rowsAs,
  seedAgentId,
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

const buyer = user(DEMO.buyer);
const seller = user(DEMO.seller);
const admin = user(DEMO.admin);

describe('row-level security everywhere', () => {
  it('is enabled on every public table', async () => {
    const rows = await rowsAs<{ count: number }>(
      db,
      serviceRole,
      "select count(*)::int as count from pg_tables where schemaname = 'public' and not rowsecurity",
    );
    expect(rows[0]?.count).toBe(0);
  });
});

describe('profiles and settings', () => {
  it('a user reads only their own full profile; others through public_profiles', async () => {
    const own = await rowsAs(db, buyer, 'select id, email, user_type from public.users');
    expect(own).toEqual([{ id: DEMO.buyer, email: 'buyer@demo.test', user_type: 'buyer' }]);
    expect(await rowsAs(db, anon, 'select id from public.users')).toEqual([]);

    const other = await rowsAs<Record<string, unknown>>(
      db,
      buyer,
      'select * from public.public_profiles where id = $1',
      [DEMO.otherBuyer],
    );
    expect(other[0]).toMatchObject({ username: 'alex_rivera', email: null, phone: null });
    // marcus_chen is private: username stays visible, details do not.
    const privateProfile = await rowsAs(
      db,
      anon,
      "select username, bio, location from public.public_profiles where username = 'marcus_chen'",
    );
    expect(privateProfile).toEqual([{ username: 'marcus_chen', bio: null, location: null }]);
    // demo_seller is members-only with show_email: details for signed-in viewers only.
    const asAnon = await rowsAs(db, anon, 'select location, email from public.public_profiles where id = $1', [
      DEMO.seller,
    ]);
    expect(asAnon).toEqual([{ location: null, email: null }]);
    const asMember = await rowsAs(db, buyer, 'select location, email from public.public_profiles where id = $1', [
      DEMO.seller,
    ]);
    expect(asMember).toEqual([{ location: 'Berlin, Germany', email: 'seller@demo.test' }]);
  });

  it("a user cannot update or delete another user's profile or settings", async () => {
    expect(await affectedAs(db, buyer, "update public.users set bio = 'hacked' where id = $1", [DEMO.otherBuyer])).toBe(
      0,
    );
    expect(await errorCodeAs(db, buyer, 'delete from public.users where id = $1', [DEMO.otherBuyer])).toBe('42501');
    expect(await rowsAs(db, buyer, 'select * from public.user_settings where user_id = $1', [DEMO.otherBuyer])).toEqual(
      [],
    );
    expect(
      await affectedAs(db, buyer, 'update public.user_settings set show_email = true where user_id = $1', [
        DEMO.otherBuyer,
      ]),
    ).toBe(0);
    expect(await rowsAs(db, buyer, 'select user_id from public.user_settings')).toEqual([{ user_id: DEMO.buyer }]);
  });

  it('a user updates their own profile and settings, but never their user_type or email', async () => {
    expect(await affectedAs(db, buyer, "update public.users set bio = 'Hello' where id = $1", [DEMO.buyer])).toBe(1);
    expect(
      await affectedAs(db, buyer, "update public.user_settings set profile_visibility = 'private' where user_id = $1", [
        DEMO.buyer,
      ]),
    ).toBe(1);
    expect(
      await errorCodeAs(db, buyer, "update public.users set user_type = 'admin' where id = $1", [DEMO.buyer]),
    ).toBe('42501');
    expect(
      await errorCodeAs(db, seller, "update public.users set user_type = 'admin' where id = $1", [DEMO.seller]),
    ).toBe('42501');
    const email = await rolledBack(db, buyer, async (tx) => {
      await tx.query("update public.users set email = 'other@demo.test' where id = $1", [DEMO.buyer]);
      return (await tx.query<{ email: string }>('select email from public.users where id = $1', [DEMO.buyer])).rows[0]
        ?.email;
    });
    expect(email).toBe('buyer@demo.test');
  });

  it('an admin can change a user type', async () => {
    expect(
      await affectedAs(db, admin, "update public.users set user_type = 'seller' where id = $1", [DEMO.otherBuyer]),
    ).toBe(1);
  });

  it('username availability is case-insensitive', async () => {
    const rows = await rowsAs(
      db,
      anon,
      "select public.is_username_available('DEMO_Buyer') as taken, public.is_username_available('fresh_name') as free, public.is_username_available('ab') as short",
    );
    expect(rows).toEqual([{ taken: false, free: true, short: false }]);
  });
});

describe('sign-up trigger', () => {
  async function signUp(id: string, email: string, metadata: Record<string, unknown>) {
    return rolledBackTransaction(db, async (tx) => {
      await tx.query('set local role supabase_auth_admin');
      await tx.query('set local search_path = auth');
      await tx.query(
        `insert into users (instance_id, id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
         values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', '', $2, '', '{"provider":"email","providers":["email"]}', $3, now(), now())`,
        [id, email, JSON.stringify(metadata)],
      );
      await tx.query('reset role');
      const profile = await tx.query<{ username: string; user_type: string }>(
        'select username, user_type from public.users where id = $1',
        [id],
      );
      const settings = await tx.query('select user_id from public.user_settings where user_id = $1', [id]);
      return { profile: profile.rows[0], settings: settings.rows.length };
    });
  }

  it('never creates an admin from metadata', async () => {
    const result = await signUp('10000000-0000-4000-8000-000000000001', 'mallory@demo.test', {
      username: 'mallory',
      user_type: 'admin',
    });
    expect(result).toEqual({ profile: { username: 'mallory', user_type: 'buyer' }, settings: 1 });
  });

  it('never creates a seller from metadata, and makes usernames unique or derives them from the email', async () => {
    expect(
      (
        await signUp('10000000-0000-4000-8000-000000000002', 'new.seller@demo.test', {
          username: 'Demo_Seller',
          user_type: 'seller',
        })
      ).profile,
    ).toEqual({ username: 'Demo_Seller_1', user_type: 'buyer' });
    expect((await signUp('10000000-0000-4000-8000-000000000003', 'jo.ng@demo.test', {})).profile).toEqual({
      username: 'jo_ng',
      user_type: 'buyer',
    });
  });
});

describe('agents', () => {
  it('anon reads published agents only', async () => {
    const rows = await rowsAs<{ status: string; count: number }>(
      db,
      anon,
      'select status, count(*)::int as count from public.agents group by status',
    );
    expect(rows).toEqual([{ status: 'published', count: 72 }]);
  });

  it('a seller sees their own drafts, not the drafts of others', async () => {
    const own = await rowsAs<{ id: string }>(
      db,
      seller,
      "select id from public.agents where status <> 'published' order by id",
    );
    expect(own.map((row) => row.id)).toEqual([seedAgentId(73), seedAgentId(74), seedAgentId(75)]);
    expect(
      await rowsAs(db, user(DEMO.otherSeller), "select id from public.agents where status <> 'published'"),
    ).toEqual([]);
    expect(await rowsAs(db, admin, "select id from public.agents where status <> 'published'")).toHaveLength(3);
  });

  it('a buyer keeps seeing an archived agent they bought', async () => {
    expect(await rowsAs(db, buyer, 'select name from public.agents where id = $1', [seedAgentId(75)])).toEqual([
      { name: 'Cold Call Trainer' },
    ]);
  });

  it('sellers write only their own agents; buyers cannot create agents', async () => {
    const insert = `insert into public.agents (name, description, price, category, seller_id) values ('X Agent', 'd', 10, 'Sales', $1)`;
    expect(await affectedAs(db, seller, insert, [DEMO.seller])).toBe(1);
    expect(await errorCodeAs(db, seller, insert, [DEMO.otherSeller])).toBe('42501');
    expect(await errorCodeAs(db, buyer, insert, [DEMO.buyer])).toBe('42501');
    expect(await affectedAs(db, seller, 'update public.agents set price = 1 where id = $1', [seedAgentId(2)])).toBe(0);
    expect(await affectedAs(db, seller, 'update public.agents set price = 1 where id = $1', [seedAgentId(1)])).toBe(1);
    expect(
      await errorCodeAs(db, seller, 'update public.agents set seller_id = $2 where id = $1', [
        seedAgentId(1),
        DEMO.otherSeller,
      ]),
    ).toBe('42501');
    expect(await affectedAs(db, seller, 'delete from public.agents where id = $1', [seedAgentId(73)])).toBe(1);
    expect(await affectedAs(db, seller, 'delete from public.agents where id = $1', [seedAgentId(2)])).toBe(0);
  });
});

describe('purchases', () => {
  it('a buyer reads only their own purchases', async () => {
    const rows = await rowsAs<{ buyer_id: string }>(db, buyer, 'select distinct buyer_id from public.purchases');
    expect(rows).toEqual([{ buyer_id: DEMO.buyer }]);
    expect(await rowsAs(db, anon, 'select id from public.purchases')).toEqual([]);
  });

  it('a seller reads the sales of their agents; an admin reads all', async () => {
    const sales = await rowsAs<{ seller_id: string; buyer_id: string }>(
      db,
      seller,
      'select seller_id, buyer_id from public.purchases',
    );
    expect(sales.length).toBeGreaterThan(0);
    expect(sales.every((row) => row.seller_id === DEMO.seller || row.buyer_id === DEMO.seller)).toBe(true);
    const all = await rowsAs<{ count: number }>(db, admin, 'select count(*)::int as count from public.purchases');
    const truth = await rowsAs<{ count: number }>(
      db,
      serviceRole,
      'select count(*)::int as count from public.purchases',
    );
    expect(all).toEqual(truth);
  });

  it('a buyer cannot insert, update or delete a purchase', async () => {
    const insert = `insert into public.purchases (buyer_id, agent_id, amount, status) values ($1, $2, 0, $3)`;
    expect(await errorCodeAs(db, buyer, insert, [DEMO.buyer, seedAgentId(5), 'completed'])).toBe('42501');
    expect(await errorCodeAs(db, buyer, insert, [DEMO.buyer, seedAgentId(5), 'pending'])).toBe('42501');
    expect(
      await errorCodeAs(db, buyer, "update public.purchases set status = 'completed' where buyer_id = $1", [
        DEMO.buyer,
      ]),
    ).toBe('42501');
    expect(await errorCodeAs(db, buyer, 'delete from public.purchases where buyer_id = $1', [DEMO.buyer])).toBe(
      '42501',
    );
    expect(
      await errorCodeAs(db, seller, 'update public.purchases set amount = 0 where seller_id = $1', [DEMO.seller]),
    ).toBe('42501');
  });

  it('service_role records purchases; seller_id defaults to the agent seller; one live purchase per buyer and agent', async () => {
    const sellerId = await rolledBack(db, serviceRole, async (tx) => {
      const row = await tx.query<{ seller_id: string }>(
        `insert into public.purchases (buyer_id, agent_id, list_price, amount, status) select $1, a.id, a.price, a.price, 'completed' from public.agents a where a.id = $2 returning seller_id`,
        [DEMO.buyer, seedAgentId(7)],
      );
      return row.rows[0]?.seller_id;
    });
    expect(sellerId).toBe(DEMO.seller);
    expect(
      await errorCodeAs(
        db,
        serviceRole,
        `insert into public.purchases (buyer_id, agent_id, list_price, amount, status) select $1, a.id, a.price, a.price, 'completed' from public.agents a where a.id = $2`,
        [DEMO.buyer, seedAgentId(1)],
      ),
    ).toBe('23505');
  });
});

describe('reviews', () => {
  const insert = 'insert into public.reviews (agent_id, buyer_id, rating, review_text) values ($1, $2, $3, $4)';

  it('are public', async () => {
    const rows = await rowsAs<{ count: number }>(db, anon, 'select count(*)::int as count from public.reviews');
    expect(rows[0]?.count).toBeGreaterThan(10);
  });

  it('need a completed purchase', async () => {
    // 63: pending, 8: failed, 21: refunded, 2: never bought
    for (const n of [63, 8, 21, 2]) {
      expect(await errorCodeAs(db, buyer, insert, [seedAgentId(n), DEMO.buyer, 5, 'Great'])).toBe('PT403');
    }
    expect(await affectedAs(db, buyer, insert, [seedAgentId(40), DEMO.buyer, 4, 'Solid'])).toBe(1);
  });

  it('allow one review per buyer and agent', async () => {
    expect(await errorCodeAs(db, buyer, insert, [seedAgentId(1), DEMO.buyer, 3, 'Again'])).toBe('23505');
  });

  it('are written only by their author', async () => {
    const [owned] = await rowsAs<{ agent_id: string }>(
      db,
      serviceRole,
      `select p.agent_id from public.purchases p where p.buyer_id = $1 and p.status = 'completed'
         and not exists (select 1 from public.reviews r where r.agent_id = p.agent_id and r.buyer_id = p.buyer_id) limit 1`,
      [DEMO.otherBuyer],
    );
    expect(await errorCodeAs(db, buyer, insert, [owned?.agent_id, DEMO.otherBuyer, 1, 'Fake'])).toBe('42501');
    expect(await affectedAs(db, buyer, 'update public.reviews set rating = 1 where buyer_id <> $1', [DEMO.buyer])).toBe(
      0,
    );
    expect(await affectedAs(db, buyer, 'delete from public.reviews where buyer_id <> $1', [DEMO.buyer])).toBe(0);
    expect(
      await affectedAs(db, buyer, 'update public.reviews set rating = 3 where buyer_id = $1 and agent_id = $2', [
        DEMO.buyer,
        seedAgentId(1),
      ]),
    ).toBe(1);
  });

  it('keep agent_stats in step', async () => {
    const stats = await rolledBack(db, buyer, async (tx) => {
      await tx.query(insert, [seedAgentId(40), DEMO.buyer, 1, 'Meh']);
      const view = await tx.query<{ review_count: number; avg_rating: string }>(
        'select review_count, avg_rating from public.agents_with_stats where id = $1',
        [seedAgentId(40)],
      );
      const truth = await tx.query<{ review_count: number; avg_rating: string }>(
        'select count(*)::int as review_count, round(avg(rating), 2)::text as avg_rating from public.reviews where agent_id = $1',
        [seedAgentId(40)],
      );
      return { view: view.rows[0], truth: truth.rows[0] };
    });
    expect(stats.view?.review_count).toBe(stats.truth?.review_count);
    expect(Number(stats.view?.avg_rating)).toBe(Number(stats.truth?.avg_rating));
  });
});

describe('newsletter, downloads, packages, stats', () => {
  it("only service_role (the app's newsletter action) writes and reads subscribers", async () => {
    // Anonymous bulk writes: the Data API roles cannot insert; see identity-rules.test.ts.
    expect(
      await errorCodeAs(db, anon, "insert into public.newsletter_subscribers (email) values ('new@demo.test')"),
    ).toBe('42501');
    expect(
      await affectedAs(db, serviceRole, "insert into public.newsletter_subscribers (email) values ('new@demo.test')"),
    ).toBe(1);
    expect(
      await errorCodeAs(
        db,
        serviceRole,
        "insert into public.newsletter_subscribers (email) values ('Upper@Demo.test')",
      ),
    ).toBe('23514');
    expect(await errorCodeAs(db, anon, 'select * from public.newsletter_subscribers')).toBe('42501');
    expect(await errorCodeAs(db, buyer, 'select * from public.newsletter_subscribers')).toBe('42501');
    expect((await rowsAs(db, serviceRole, 'select * from public.newsletter_subscribers')).length).toBe(3);
  });

  it('downloads: own reads only, no writes', async () => {
    const rows = await rowsAs<{ buyer_id: string }>(db, buyer, 'select distinct buyer_id from public.downloads');
    expect(rows).toEqual([{ buyer_id: DEMO.buyer }]);
    expect(
      await errorCodeAs(db, buyer, 'insert into public.downloads (agent_id, buyer_id) values ($1, $2)', [
        seedAgentId(1),
        DEMO.buyer,
      ]),
    ).toBe('42501');
  });

  it('agent versions: only trusted server code adds them; buyers with a completed purchase read; others do not', async () => {
    const insert = `insert into public.agent_versions (agent_id, version, file_path, file_name, content_type, file_size)
       values ($1::uuid, '9.0.0', $2::text || '/' || $1::text || '/9.0.0/p.zip', 'p.zip', 'application/zip', 1)`;
    const visible = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(insert, [seedAgentId(1), DEMO.seller]);
      await tx.query(insert, [seedAgentId(7), DEMO.seller]);
      await tx.query(
        "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true)",
        [JSON.stringify({ role: 'authenticated', sub: DEMO.buyer }), DEMO.buyer],
      );
      const asBuyer = await tx.query<{ file_path: string }>(
        "select file_path from public.agent_versions where version = '9.0.0'",
      );
      await tx.query("select set_config('role', 'anon', true)");
      const asAnon = await tx.query('select file_path from public.agent_versions');
      return { asBuyer: asBuyer.rows, asAnon: asAnon.rows };
    });
    expect(visible.asBuyer).toEqual([{ file_path: `${DEMO.seller}/${seedAgentId(1)}/9.0.0/p.zip` }]);
    expect(visible.asAnon).toEqual([]);
    // The seller writes no version, of their own agent or another's: the app writes it for them.
    expect(await errorCodeAs(db, seller, insert, [seedAgentId(1), DEMO.seller])).toBe('42501');
    expect(await errorCodeAs(db, seller, insert, [seedAgentId(2), DEMO.seller])).toBe('42501');
    expect(await errorCodeAs(db, seller, "update public.agent_versions set release_notes = 'x'")).toBe('42501');
  });

  it('agent_stats and internal functions are not writable through the API', async () => {
    expect(await errorCodeAs(db, seller, 'update public.agent_stats set avg_rating = 5')).toBe('42501');
    expect(await errorCodeAs(db, anon, 'select public.refresh_agent_stats($1)', [seedAgentId(1)])).toBe('42501');
    expect(await errorCodeAs(db, anon, 'truncate public.reviews')).toBe('42501');
  });
});

/**
 * Users and moderation in the database (migration 20261126000300), whatever code writes: the last
 * administrator stays, nobody demotes or bans themselves, only admins ban and moderate, a
 * moderated agent is not published again without a restore, a banned seller's agents leave the
 * marketplace (their buyers and admins keep them), and the audit log is for admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import {
  DEMO,
  anon,
  errorCodeAs,
  openSeededDatabase,
  rolledBack,
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

type Tx = Parameters<Parameters<typeof rolledBack>[2]>[0];

/** Switches the rest of the transaction to `claims` (after service-role setup). */
async function become(tx: Tx, claims: Record<string, unknown> & { role: string }) {
  await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
    claims.role,
    JSON.stringify(claims),
  ]);
}

/** The message a statement fails with, or undefined. */
async function failure(tx: Tx, sql: string, params: unknown[] = []): Promise<string | undefined> {
  await tx.query('savepoint attempt');
  try {
    await tx.query(sql, params);
    await tx.query('release savepoint attempt');
    return undefined;
  } catch (error) {
    await tx.query('rollback to savepoint attempt');
    return (error as Error).message;
  }
}

describe('administrators', () => {
  it('the last administrator cannot be demoted or banned, by anyone', async () => {
    const demote = `update public.users set user_type = 'buyer' where id = $1`;
    const ban = `update public.users set banned_at = now() where id = $1`;
    expect(await errorCodeAs(db, serviceRole, demote, [DEMO.admin])).toBe('PT409');
    expect(await errorCodeAs(db, serviceRole, ban, [DEMO.admin])).toBe('PT409');
    const messages = await rolledBack(db, serviceRole, async (tx) => [
      await failure(tx, demote, [DEMO.admin]),
      await failure(tx, `select public.admin_change_role($1, $2, 'seller', 'x')`, [DEMO.buyer, DEMO.admin]),
    ]);
    expect(messages).toEqual([
      'The last administrator cannot be demoted or banned',
      'The last administrator cannot be demoted or banned',
    ]);
  });

  it('with a second administrator one may go, but never themselves', async () => {
    const result = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(`update public.users set user_type = 'admin' where id = $1`, [DEMO.seller]);
      const self = await failure(tx, `select public.admin_set_ban($1, $1, true, 'no reason')`, [DEMO.admin]);
      await become(tx, user(DEMO.admin));
      const selfThroughApi = await failure(tx, `update public.users set user_type = 'buyer' where id = $1`, [
        DEMO.admin,
      ]);
      const other = await failure(tx, `update public.users set user_type = 'seller' where id = $1`, [DEMO.seller]);
      return { self, selfThroughApi, other };
    });
    expect(result).toEqual({
      self: 'Administrators cannot demote or ban themselves',
      selfThroughApi: 'Administrators cannot demote or ban themselves',
      other: undefined,
    });
  });

  it('one rule names the last administrator, and the deletion trigger follows it', async () => {
    const result = await rolledBack(db, serviceRole, async (tx) => {
      const lastOf = async (id: string) =>
        (await tx.query<{ last: boolean }>('select public.is_last_active_admin($1) as last', [id])).rows[0]?.last;
      const alone = { admin: await lastOf(DEMO.admin), buyer: await lastOf(DEMO.buyer) };
      const deleteAlone = await failure(tx, 'delete from public.users where id = $1', [DEMO.admin]);
      await tx.query(`update public.users set user_type = 'admin' where id = $1`, [DEMO.seller]);
      const withSecond = { admin: await lastOf(DEMO.admin), seller: await lastOf(DEMO.seller) };
      // A banned administrator does not count: the other one is the last again.
      await tx.query('update public.users set banned_at = now() where id = $1', [DEMO.seller]);
      const secondBanned = await lastOf(DEMO.admin);
      return { alone, deleteAlone, withSecond, secondBanned };
    });
    expect(result).toEqual({
      alone: { admin: true, buyer: false },
      deleteAlone: 'The last administrator cannot be deleted',
      withSecond: { admin: false, seller: false },
      secondBanned: true,
    });
    expect(await errorCodeAs(db, anon, 'select public.is_last_active_admin($1)', [DEMO.admin])).toBe('42501');
  });

  it('only administrators ban: a user cannot set or clear a ban on their own row', async () => {
    expect(
      await errorCodeAs(db, user(DEMO.buyer), `update public.users set banned_at = now() where id = $1`, [DEMO.buyer]),
    ).toBe('42501');
    expect(
      await errorCodeAs(db, user(DEMO.admin), `update public.users set banned_at = now() where id = $1`, [DEMO.buyer]),
    ).toBeUndefined();
  });

  it('a role change and a ban write their audit rows in the same transaction', async () => {
    const rows = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(`select public.admin_change_role($1, $2, 'seller', 'Asked to sell')`, [DEMO.admin, DEMO.buyer]);
      await tx.query(`select public.admin_set_ban($1, $2, true, 'Spam listings')`, [DEMO.admin, DEMO.otherSeller]);
      const users = await tx.query<{ id: string; user_type: string; ban_reason: string | null; banned: boolean }>(
        `select id, user_type, ban_reason, banned_at is not null as banned from public.users where id in ($1, $2) order by id`,
        [DEMO.buyer, DEMO.otherSeller],
      );
      const audit = await tx.query(
        `select action, target_id, reason, details from public.audit_log where actor_id = $1 order by created_at, action`,
        [DEMO.admin],
      );
      return { users: users.rows, audit: audit.rows };
    });
    expect(rows.users).toEqual([
      { id: DEMO.buyer, user_type: 'seller', ban_reason: null, banned: false },
      { id: DEMO.otherSeller, user_type: 'seller', ban_reason: 'Spam listings', banned: true },
    ]);
    expect(rows.audit).toEqual(
      expect.arrayContaining([
        {
          action: 'user.role_changed',
          target_id: DEMO.buyer,
          reason: 'Asked to sell',
          details: { from: 'buyer', to: 'seller' },
        },
        { action: 'user.banned', target_id: DEMO.otherSeller, reason: 'Spam listings', details: {} },
      ]),
    );
  });

  it('the admin functions are not callable through the API roles', async () => {
    for (const claims of [anon, user(DEMO.admin)]) {
      expect(
        await errorCodeAs(db, claims, `select public.admin_set_ban($1, $2, true, 'x')`, [DEMO.admin, DEMO.buyer]),
      ).toBe('42501');
    }
  });
});

describe('the audit log', () => {
  it('admins read it; other users and visitors read nothing and nobody writes it through the API', async () => {
    const seen = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(`select public.admin_change_role($1, $2, 'seller', 'Probe')`, [DEMO.admin, DEMO.buyer]);
      const counts: Record<string, number> = {};
      for (const [name, claims] of [
        ['admin', user(DEMO.admin)],
        ['buyer', user(DEMO.buyer)],
        ['anon', anon],
      ] as const) {
        await become(tx, claims);
        const message = await failure(tx, 'select 1 from public.audit_log');
        counts[name] = message
          ? -1
          : Number((await tx.query<{ n: number }>('select count(*)::int as n from public.audit_log')).rows[0]!.n);
      }
      return counts;
    });
    expect(seen.admin).toBeGreaterThan(0);
    expect(seen.buyer).toBe(0);
    expect(seen.anon).toBeLessThanOrEqual(0);
    const insert = `insert into public.audit_log (actor_id, action, target_type, target_id) values ($1, 'user.banned', 'user', $1)`;
    expect(await errorCodeAs(db, user(DEMO.admin), insert, [DEMO.admin])).toBe('42501');
    expect(await errorCodeAs(db, serviceRole, 'delete from public.audit_log')).toBe('42501');
  });
});

describe('moderated agents', () => {
  const AGENT = seedAgentId(13); // published, demo_seller's

  it('an unpublished agent is a draft with its reason that its seller reads and cannot publish again', async () => {
    const result = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(`select public.admin_moderate_agent($1, $2, true, 'Misleading claims')`, [DEMO.admin, AGENT]);
      await become(tx, user(DEMO.seller));
      const own = await tx.query('select status, moderation_reason from public.agents where id = $1', [AGENT]);
      const publish = await failure(tx, `update public.agents set status = 'published' where id = $1`, [AGENT]);
      const clear = await failure(tx, `update public.agents set moderation_reason = null where id = $1`, [AGENT]);
      return { own: own.rows, publish, clear };
    });
    expect(result.own).toEqual([{ status: 'draft', moderation_reason: 'Misleading claims' }]);
    expect(result.publish).toBe(
      'This agent was unpublished by a moderator (Misleading claims); only an administrator can restore it',
    );
    expect(result.clear).toBe("Only an administrator can change an agent's moderation");
  });

  it('a restore by an admin clears the reason and republishes; both are audited', async () => {
    const result = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(`select public.admin_moderate_agent($1, $2, true, 'Misleading claims')`, [DEMO.admin, AGENT]);
      await tx.query(`select public.admin_moderate_agent($1, $2, false, 'Fixed by the seller')`, [DEMO.admin, AGENT]);
      const agent = await tx.query('select status, moderation_reason from public.agents where id = $1', [AGENT]);
      const audit = await tx.query(
        'select action, reason from public.audit_log where target_id = $1 order by created_at, action desc',
        [AGENT],
      );
      return { agent: agent.rows, audit: audit.rows };
    });
    expect(result.agent).toEqual([{ status: 'published', moderation_reason: null }]);
    expect(result.audit).toEqual([
      { action: 'agent.unpublished', reason: 'Misleading claims' },
      { action: 'agent.restored', reason: 'Fixed by the seller' },
    ]);
  });

  it('its buyers keep it; other users and visitors do not see it', async () => {
    const seen = await rolledBack(db, serviceRole, async (tx) => {
      // Agent 1 was bought by demo_buyer (completed).
      await tx.query(`select public.admin_moderate_agent($1, $2, true, 'Misleading claims')`, [
        DEMO.admin,
        seedAgentId(1),
      ]);
      const result: Record<string, boolean> = {};
      for (const [name, claims] of [
        ['buyer', user(DEMO.buyer)],
        ['other', user('00000000-0000-4000-8000-000000000012')],
        ['anon', anon],
      ] as const) {
        await become(tx, claims);
        result[name] =
          (await tx.query('select 1 from public.agents where id = $1', [seedAgentId(1)])).rows.length === 1;
      }
      return result;
    });
    expect(seen).toEqual({ buyer: true, other: false, anon: false });
  });
});

describe("a banned seller's agents", () => {
  // demo_buyer bought agent 14 (completed).
  it('leave the marketplace and the public; admins and their buyers keep them', async () => {
    const result = await rolledBack(db, serviceRole, async (tx) => {
      const sellerOf14 = (
        await tx.query<{ seller_id: string }>('select seller_id from public.agents where id = $1', [seedAgentId(14)])
      ).rows[0]!.seller_id;
      await tx.query(`select public.admin_set_ban($1, $2, true, 'Fraud')`, [DEMO.admin, sellerOf14]);
      const read = async (claims: Record<string, unknown> & { role: string }) => {
        await become(tx, claims);
        const agent = (await tx.query('select 1 from public.agents where id = $1', [seedAgentId(14)])).rows.length;
        const catalogue = (await tx.query('select 1 from public.catalogue_agents() where seller_id = $1', [sellerOf14]))
          .rows.length;
        return { agent, catalogue };
      };
      return {
        anon: await read(anon),
        buyer: await read(user(DEMO.buyer)),
        admin: await read(user(DEMO.admin)),
      };
    });
    expect(result).toEqual({
      anon: { agent: 0, catalogue: 0 },
      buyer: { agent: 1, catalogue: 0 },
      admin: { agent: 1, catalogue: 0 },
    });
  });

  it('come back when the seller is unbanned, and new agents of a banned seller are hidden too', async () => {
    const result = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(`select public.admin_set_ban($1, $2, true, 'Fraud')`, [DEMO.admin, DEMO.otherSeller]);
      const added = await tx.query<{ seller_banned: boolean }>(
        `insert into public.agents (name, description, price, category, seller_id, status)
         values ('Ban Probe', 'd', 10, 'Sales', $1, 'published') returning seller_banned`,
        [DEMO.otherSeller],
      );
      await tx.query(`select public.admin_set_ban($1, $2, false, 'Appeal accepted')`, [DEMO.admin, DEMO.otherSeller]);
      await become(tx, anon);
      const visible = await tx.query('select 1 from public.agents where seller_id = $1', [DEMO.otherSeller]);
      return { newAgentHidden: added.rows[0]!.seller_banned, visible: visible.rows.length > 0 };
    });
    expect(result).toEqual({ newAgentHidden: true, visible: true });
  });

  it('a seller cannot unhide their agents by writing seller_banned', async () => {
    expect(
      await errorCodeAs(db, user(DEMO.seller), 'update public.agents set seller_banned = true where seller_id = $1', [
        DEMO.seller,
      ]),
    ).toBe('42501');
  });
});

describe('the user list', () => {
  it('gives admins every account with its completed purchases; others only their own row', async () => {
    const admin = await rowsAs<{ username: string; purchase_count: number }>(
      db,
      user(DEMO.admin),
      `select username, purchase_count::int as purchase_count from public.admin_user_list where id = $1`,
      [DEMO.buyer],
    );
    expect(admin).toEqual([{ username: 'demo_buyer', purchase_count: 6 }]);
    const buyer = await rowsAs(db, user(DEMO.buyer), 'select id from public.admin_user_list');
    expect(buyer).toEqual([{ id: DEMO.buyer }]);
    expect(await errorCodeAs(db, anon, 'select 1 from public.admin_user_list')).toBe('42501');
  });
});

/**
 * Platform settings (migration 20261210000100, ADR 065): one typed row anyone reads and only an
 * admin changes, each change audited with who, when and what; the fee each sale is charged is
 * the one in force when it was bought; closed sign-up refuses new accounts in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, openSeededDatabase, rolledBack, rolledBackTransaction, seedAgentId, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

const SETTINGS =
  'select platform_fee_percent::float8 as fee, signups_open, maintenance_mode from public.platform_settings';

describe('who reads and who changes', () => {
  it('anyone reads the one row: a 10 % fee, sign-up open, no maintenance', async () => {
    for (const viewer of [anon, user(DEMO.buyer)]) {
      const rows = await rolledBack(db, viewer, async (tx) => (await tx.query(SETTINGS)).rows);
      expect(rows).toEqual([{ fee: 10, signups_open: true, maintenance_mode: false }]);
    }
  });

  it('a buyer, a seller and anon change nothing; an admin changes it, stamped and audited', async () => {
    for (const viewer of [anon, user(DEMO.buyer), user(DEMO.seller)]) {
      const changed = await rolledBack(
        db,
        viewer,
        async (tx) =>
          (await tx.query('update public.platform_settings set platform_fee_percent = 1 returning id')).rows.length,
      ).catch(() => 0);
      expect(changed, viewer.role).toBe(0);
    }
    const audit = await rolledBack(db, user(DEMO.admin), async (tx) => {
      await tx.query(
        `update public.platform_settings set platform_fee_percent = 12.5, maintenance_mode = true,
           maintenance_message = 'Back at noon', updated_by = $1`,
        [DEMO.buyer],
      );
      await tx.query('reset role');
      const row = (await tx.query<{ updated_by: string }>('select updated_by from public.platform_settings')).rows[0];
      const log = (
        await tx.query<{ actor_id: string; action: string; details: Record<string, { from: unknown; to: unknown }> }>(
          `select actor_id, action, details from public.audit_log where action = 'settings.changed'`,
        )
      ).rows;
      return { row, log };
    });
    // Who changed it is the database's to say, not the caller's.
    expect(audit.row!.updated_by).toBe(DEMO.admin);
    expect(audit.log).toEqual([
      {
        actor_id: DEMO.admin,
        action: 'settings.changed',
        details: {
          platform_fee_percent: { from: 10, to: 12.5 },
          maintenance_mode: { from: false, to: true },
          maintenance_message: { from: null, to: 'Back at noon' },
        },
      },
    ]);
  });

  it('keeps who changed them last to itself, and names no one for a save that changed nothing', async () => {
    await expect(
      rolledBack(db, anon, (tx) => tx.query('select updated_by from public.platform_settings')),
    ).rejects.toThrow(/permission denied/);
    const stamps = await rolledBack(db, user(DEMO.admin), async (tx) => {
      await tx.query('update public.platform_settings set platform_fee_percent = platform_fee_percent');
      await tx.query('reset role');
      return (await tx.query<{ updated_by: string | null }>('select updated_by from public.platform_settings')).rows[0];
    });
    expect(stamps!.updated_by).toBeNull();
  });

  it('refuses values outside the ranges and a second row', async () => {
    for (const sql of [
      'update public.platform_settings set platform_fee_percent = 50.01',
      'update public.platform_settings set platform_fee_percent = -1',
      'update public.platform_settings set max_image_mb = 3',
      'update public.platform_settings set max_package_mb = 0',
      'update public.platform_settings set max_package_mb = 11',
      `update public.platform_settings set maintenance_message = repeat('x', 301)`,
      `insert into public.platform_settings (id) values (gen_random_uuid())`,
    ]) {
      await expect(
        rolledBackTransaction(db, (tx) => tx.query(sql)),
        sql,
      ).rejects.toThrow(/violates/);
    }
  });
});

describe('the fee a sale is charged', () => {
  it('is the one in force when it was bought, whatever the caller sends', async () => {
    const fees = await rolledBackTransaction(db, async (tx) => {
      const buy = (agent: number) =>
        tx.query<{ fee: number }>(
          `insert into public.purchases (buyer_id, agent_id, list_price, amount, status, platform_fee_percent)
           values ($1, $2, 10, 10, 'completed', 0) returning platform_fee_percent::float8 as fee`,
          [DEMO.otherBuyer, seedAgentId(agent)],
        );
      const before = (await buy(30)).rows[0]!.fee;
      await tx.query('update public.platform_settings set platform_fee_percent = 20');
      const after = (await buy(31)).rows[0]!.fee;
      const kept = (
        await tx.query<{ fee: number }>(
          `select platform_fee_percent::float8 as fee from public.purchases
           where buyer_id = $1 and agent_id = $2`,
          [DEMO.otherBuyer, seedAgentId(30)],
        )
      ).rows[0]!.fee;
      return { before, after, kept };
    });
    expect(fees).toEqual({ before: 10, after: 20, kept: 10 });
  });

  it('stays what it was charged, whoever updates the purchase', async () => {
    const fee = await rolledBackTransaction(db, async (tx) => {
      const id = (
        await tx.query<{ id: string }>(
          `insert into public.purchases (buyer_id, agent_id, list_price, amount, status)
           values ($1, $2, 10, 10, 'completed') returning id`,
          [DEMO.otherBuyer, seedAgentId(32)],
        )
      ).rows[0]!.id;
      await tx.query('update public.purchases set platform_fee_percent = 0 where id = $1', [id]);
      return (
        await tx.query<{ fee: number }>(
          'select platform_fee_percent::float8 as fee from public.purchases where id = $1',
          [id],
        )
      ).rows[0]!.fee;
    });
    expect(fee).toBe(10);
  });

  it('adds up in a seller’s earnings at each sale’s own rate', async () => {
    const figures = await rolledBackTransaction(db, async (tx) => {
      const earnings = async () => {
        await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
          JSON.stringify(user(DEMO.seller)),
        ]);
        const row = (
          await tx.query<{ fee: number }>(
            `select fee::float8 as fee from public.seller_earnings('UTC') where scope = 'total'`,
          )
        ).rows[0]!;
        await tx.query('reset role');
        return row.fee;
      };
      const before = await earnings();
      await tx.query('update public.platform_settings set platform_fee_percent = 25');
      const agent = (
        await tx.query<{ id: string }>(
          `insert into public.agents (name, description, price, category, seller_id, status)
           values ('Fee Probe', 'd', 40, 'Sales', $1, 'published') returning id`,
          [DEMO.seller],
        )
      ).rows[0]!.id;
      await tx.query(
        `insert into public.purchases (buyer_id, agent_id, list_price, amount, status) values ($1, $2, 40, 40, 'completed')`,
        [DEMO.otherBuyer, agent],
      );
      return { before, after: await earnings() };
    });
    // The old sales keep their fee; the new one adds 25 % of 40.
    expect(figures.after).toBeCloseTo(figures.before + 10, 2);
  });
});

describe('the price ceiling', () => {
  it('refuses a price above it on every write, follows a change, and lets an unchanged price stand', async () => {
    const outcome = await rolledBackTransaction(db, async (tx) => {
      const attempt = async (sql: string, params: unknown[]) => {
        await tx.query('savepoint attempt');
        try {
          await tx.query(sql, params);
          await tx.query('release savepoint attempt');
          return 'ok';
        } catch (error) {
          await tx.query('rollback to savepoint attempt');
          return (error as { code?: string }).code;
        }
      };
      const insert = (price: number) =>
        attempt(
          `insert into public.agents (name, description, price, category, seller_id, status)
           values ('Ceiling Probe', 'd', $1, 'Sales', $2, 'draft')`,
          [price, DEMO.seller],
        );
      const above = await insert(300.01);
      const at = await insert(300);
      await tx.query('update public.platform_settings set max_agent_price = 1000');
      const raised = await insert(999.99);
      await tx.query('update public.platform_settings set max_agent_price = 50');
      const agent = seedAgentId(1);
      const price = (
        await tx.query<{ price: number }>('select price::float8 as price from public.agents where id = $1', [agent])
      ).rows[0]!.price;
      const otherField = await attempt(`update public.agents set description = description || ' ' where id = $1`, [
        agent,
      ]);
      const samePrice = await attempt('update public.agents set price = price where id = $1', [agent]);
      const newPrice = await attempt('update public.agents set price = $2 where id = $1', [agent, price + 1]);
      return { above, at, raised, price, otherField, samePrice, newPrice };
    });
    expect(outcome.price).toBeGreaterThan(50);
    expect(outcome).toMatchObject({
      above: '23514',
      at: 'ok',
      raised: 'ok',
      otherField: 'ok',
      samePrice: 'ok',
      newPrice: '23514',
    });
  });
});

describe('sign-up closed', () => {
  it('refuses a new account in the database (PT403), and takes them again when open', async () => {
    const insert = `insert into auth.users (id, email, aud, role) values (gen_random_uuid(), $1, 'authenticated', 'authenticated')`;
    await expect(
      rolledBackTransaction(db, async (tx) => {
        await tx.query('update public.platform_settings set signups_open = false');
        await tx.query(insert, ['closed@example.com']);
      }),
    ).rejects.toMatchObject({ code: 'PT403' });
    await expect(rolledBackTransaction(db, (tx) => tx.query(insert, ['open@example.com']))).resolves.toBeTruthy();
  });
});

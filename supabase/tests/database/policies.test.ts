/**
 * Policies (migration 20261216000100, ADR 069): versions numbered, dated and signed by the
 * database, never changed; acceptances of one's own, of now; what each user still has to accept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, errorCodeAs, openSeededDatabase, rolledBack, rowsAs, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe('policy versions', () => {
  it('anyone reads the versions in force; every demo account accepted them', async () => {
    const current = await rowsAs<{ document: string; version: number }>(
      db,
      anon,
      'select document, version from public.current_policies order by document',
    );
    expect(current).toEqual([
      { document: 'privacy', version: 1 },
      { document: 'seller', version: 1 },
      { document: 'terms', version: 1 },
    ]);
    for (const who of [DEMO.buyer, DEMO.seller, DEMO.admin]) {
      expect(await rowsAs(db, user(who), 'select * from public.pending_policies()'), who).toEqual([]);
    }
  });

  it('an admin publishes the next version, stamped by the database; others cannot; none changes', async () => {
    expect(
      await errorCodeAs(
        db,
        user(DEMO.seller),
        `insert into public.policy_versions (document, body, summary) values ('terms', 'x', 'y')`,
      ),
    ).toBe('42501');
    const outcome = await rolledBack(db, user(DEMO.admin), async (tx) => {
      await tx.query(
        `insert into public.policy_versions (document, body, summary) values ('terms', '## New', 'Changed')`,
      );
      await tx.query('savepoint before_edit');
      const changed = await tx
        .query(`update public.policy_versions set body = 'edited' where document = 'terms'`)
        .catch((error: { code?: string }) => error.code);
      await tx.query('rollback to savepoint before_edit');
      const row = (
        await tx.query<{ version: number; published_by: string }>(
          `select version, published_by from public.policy_versions where document = 'terms' order by version desc limit 1`,
        )
      ).rows[0];
      await tx.query('reset role');
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: DEMO.buyer, role: 'authenticated' }),
      ]);
      await tx.query('set local role authenticated');
      const pending = (
        await tx.query<{ document: string; version: number }>('select document, version from public.pending_policies()')
      ).rows;
      return { row, changed, pending };
    });
    expect(outcome.row).toEqual({ version: 2, published_by: DEMO.admin });
    expect(outcome.changed).toBe('42501');
    expect(outcome.pending).toEqual([{ document: 'terms', version: 2 }]);
  });

  it('a user accepts for themselves only, and the time is the database’s', async () => {
    expect(
      await errorCodeAs(
        db,
        user(DEMO.buyer),
        `insert into public.policy_acceptances (user_id, document, version) values ($1, 'seller', 1)`,
        [DEMO.seller],
      ),
    ).toBe('42501');
    const accepted = await rolledBack(db, user(DEMO.buyer), async (tx) => {
      await tx.query(`insert into public.policy_acceptances (user_id, document, version) values ($1, 'seller', 1)`, [
        DEMO.buyer,
      ]);
      return (
        await tx.query<{ fresh: boolean }>(
          `select accepted_at > now() - interval '1 minute' as fresh from public.policy_acceptances where user_id = $1 and document = 'seller'`,
          [DEMO.buyer],
        )
      ).rows;
    });
    expect(accepted).toEqual([{ fresh: true }]);
  });
});

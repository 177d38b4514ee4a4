/**
 * The agent visibility rule (`public.can_view_agent`, used by the agents' read policy): every
 * agent status against every kind of viewer and every purchase status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claims, Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, openSeededDatabase, rolledBack, serviceRole, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

const AGENT_STATUSES = ['published', 'archived', 'draft'] as const;
const PURCHASE_STATUSES = ['completed', 'pending', 'failed', 'refunded'] as const;

/**
 * Creates an agent of demo_seller in `agentStatus` (and, if given, a purchase of it by the other
 * buyer), then reads it as `viewer` through row-level security; all rolled back.
 */
async function seenBy(
  viewer: Claims,
  agentStatus: string,
  purchaseStatus?: string,
): Promise<{ policy: boolean; rule: boolean }> {
  return rolledBack(db, serviceRole, async (tx) => {
    const agent = await tx.query<{ id: string }>(
      `insert into public.agents (name, description, price, category, seller_id, status)
       values ('Visibility Probe', 'd', 10, 'Sales', $1, 'published') returning id`,
      [DEMO.seller],
    );
    const agentId = agent.rows[0]!.id;
    if (purchaseStatus) {
      // A refund is a completed purchase moved on (the purchases guard allows no other way).
      const purchase = await tx.query<{ id: string }>(
        `insert into public.purchases (buyer_id, agent_id, list_price, amount, status) values ($1, $2, 10, 10, $3) returning id`,
        [DEMO.otherBuyer, agentId, purchaseStatus === 'refunded' ? 'completed' : purchaseStatus],
      );
      if (purchaseStatus === 'refunded') {
        await tx.query(`update public.purchases set status = 'refunded' where id = $1`, [purchase.rows[0]!.id]);
      }
    }
    await tx.query('update public.agents set status = $2 where id = $1', [agentId, agentStatus]);
    await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
      viewer.role,
      JSON.stringify(viewer),
    ]);
    const policy = await tx.query('select id from public.agents where id = $1', [agentId]);
    const rule = await tx.query<{ visible: boolean }>(
      'select public.can_view_agent(status, seller_id, id) as visible from public.agents where id = $1',
      [agentId],
    );
    return { policy: policy.rows.length === 1, rule: rule.rows[0]?.visible ?? false };
  });
}

describe('who may see an agent', () => {
  it('a published agent: everyone', async () => {
    for (const viewer of [anon, user(DEMO.buyer), user(DEMO.otherSeller), user(DEMO.seller), user(DEMO.admin)]) {
      expect(await seenBy(viewer, 'published')).toEqual({ policy: true, rule: true });
    }
  });

  it('an archived agent or a draft: its seller and admins, not other users or anon', async () => {
    for (const status of ['archived', 'draft']) {
      expect(await seenBy(user(DEMO.seller), status)).toEqual({ policy: true, rule: true });
      expect(await seenBy(user(DEMO.admin), status)).toEqual({ policy: true, rule: true });
      expect((await seenBy(user(DEMO.otherSeller), status)).policy).toBe(false);
      expect((await seenBy(user(DEMO.otherBuyer), status)).policy).toBe(false);
      expect((await seenBy(anon, status)).policy).toBe(false);
    }
  });

  for (const purchaseStatus of PURCHASE_STATUSES) {
    it(`a buyer with a ${purchaseStatus} purchase keeps an archived agent, never a draft`, async () => {
      const buyer = user(DEMO.otherBuyer);
      expect(await seenBy(buyer, 'archived', purchaseStatus)).toEqual({ policy: true, rule: true });
      expect(await seenBy(buyer, 'published', purchaseStatus)).toEqual({ policy: true, rule: true });
      expect(await seenBy(buyer, 'draft', purchaseStatus)).toEqual({ policy: false, rule: false });
      // The purchase is the buyer's own: another buyer gains nothing from it.
      expect((await seenBy(user(DEMO.buyer), 'archived', purchaseStatus)).policy).toBe(false);
    });
  }

  it('covers every agent status the schema allows', async () => {
    const check = await db.query<{ definition: string }>(
      `select pg_get_constraintdef(oid) as definition from pg_constraint where conname = 'agents_status_check'`,
    );
    const allowed = [...check.rows[0]!.definition.matchAll(/'(\w+)'/g)].map((match) => match[1]).sort();
    expect(allowed).toEqual([...AGENT_STATUSES].sort());
  });
});

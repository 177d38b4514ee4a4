/**
 * The agent page's loader decides visibility only through the database rule
 * (`public.can_view_agent`): a buyer keeps an archived agent whatever became of the purchase,
 * and nobody but its seller and admins opens a draft. Runs the real route loader against the
 * embedded backend, with real supabase-js clients.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, userClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { connectionContext, supabaseContext, viewerContext } from '~/context';
import { ROLE_PERMISSIONS } from '~/lib/permissions';
import { loader } from './agent';

const DEMO_BUYER = '00000000-0000-4000-8000-000000000001';
const DEMO_SELLER = '00000000-0000-4000-8000-000000000002';

describe.skipIf(isHostedTarget)('agent page visibility', () => {
  let target: ContractTarget;
  let service: SupabaseClient;
  let buyer: SupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    const { data, error } = await anonClient(target).auth.signInWithPassword({
      email: 'buyer@demo.test',
      password: 'demo-password',
    });
    if (error) throw error;
    buyer = userClient(target, data.session.access_token);
  });
  afterAll(() => target?.close());

  /** A new agent of demo_seller in `status`, bought by the demo buyer with `purchaseStatus`. */
  async function agentBought(status: 'archived' | 'draft', purchaseStatus: string): Promise<string> {
    const agent = await service
      .from('agents')
      .insert({
        name: `Probe ${status} ${purchaseStatus}`,
        description: 'd',
        price: 12,
        category: 'Sales',
        seller_id: DEMO_SELLER,
        status: 'published',
      })
      .select('id')
      .single();
    if (agent.error) throw agent.error;
    // A refund is a completed purchase moved on: the purchases guard allows no other way.
    const refund = purchaseStatus === 'refunded';
    const purchase = await service
      .from('purchases')
      .insert({
        buyer_id: DEMO_BUYER,
        agent_id: agent.data.id,
        list_price: 12,
        amount: 12,
        status: refund ? 'completed' : purchaseStatus,
      })
      .select('id')
      .single();
    if (purchase.error) throw purchase.error;
    if (refund) {
      const refunded = await service.from('purchases').update({ status: 'refunded' }).eq('id', purchase.data.id);
      if (refunded.error) throw refunded.error;
    }
    const update = await service.from('agents').update({ status }).eq('id', agent.data.id);
    if (update.error) throw update.error;
    return agent.data.id as string;
  }

  async function openAsBuyer(agentId: string): Promise<number> {
    const context = new RouterContextProvider();
    context.set(connectionContext, { url: target.url, anonKey: target.anonKey });
    context.set(supabaseContext, buyer);
    context.set(viewerContext, {
      id: DEMO_BUYER,
      email: 'buyer@demo.test',
      username: 'demo_buyer',
      avatarUrl: null,
      role: 'buyer',
      permissions: [...ROLE_PERMISSIONS.buyer],
      createdAt: new Date().toISOString(),
    });
    const url = new URL(`http://localhost/agent/${agentId}`);
    try {
      const result = await loader({
        params: { agentId },
        request: new Request(url),
        context,
        url,
      } as unknown as Parameters<typeof loader>[0]);
      expect(result.data.agent.id).toBe(agentId);
      return 200;
    } catch (thrown) {
      const status = (thrown as { init?: { status?: number } }).init?.status;
      if (!status) throw thrown;
      return status;
    }
  }

  for (const purchaseStatus of ['completed', 'pending', 'failed', 'refunded']) {
    it(`opens an archived agent the buyer holds a ${purchaseStatus} purchase of`, async () => {
      expect(await openAsBuyer(await agentBought('archived', purchaseStatus))).toBe(200);
    });
    it(`never opens a draft, even with a ${purchaseStatus} purchase`, async () => {
      expect(await openAsBuyer(await agentBought('draft', purchaseStatus))).toBe(404);
    });
  }
});

/**
 * Sales lists and refunds (/dashboard/earnings for sellers, /dashboard/disputes for admins): the
 * real loaders and the shared action against the embedded backend (seeded, in memory), with
 * real supabase-js clients, so row-level security and the purchase guard apply.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../../tests/support/contract-target';
import {
  DEMO_VIEWERS,
  routeAnswer as answer,
  routeContext,
  signedInClient,
  type TestViewer,
} from '../../../tests/support/route-context';
import { REFUND_REFUSALS } from '~/server/purchases.server';
import { loader as downloadLoader } from '../agent-download';
import * as disputes from './disputes';
import * as earnings from './earnings';

const agentId = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ACCOUNTS: Record<'buyer' | 'seller' | 'admin' | 'nova', TestViewer> = {
  ...DEMO_VIEWERS,
  nova: { id: '00000000-0000-4000-8000-000000000011', email: 'nova.labs@demo.test', role: 'seller' },
};
type Who = keyof typeof ACCOUNTS;

describe.skipIf(isHostedTarget)('sales and refunds', () => {
  let target: ContractTarget;
  let service: SupabaseClient;
  const clients = new Map<Who, SupabaseClient>();

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    for (const who of Object.keys(ACCOUNTS) as Who[]) {
      clients.set(who, await signedInClient(target, ACCOUNTS[who].email));
    }
  });
  afterAll(() => target?.close());

  function args(who: Who, path: string, init?: RequestInit) {
    const url = new URL(`http://localhost${path}`);
    return {
      request: new Request(url, init),
      context: routeContext(target, ACCOUNTS[who], clients.get(who)!),
      url,
      params: {},
      pattern: url.pathname.slice(1),
    } as never;
  }

  function refundForm(purchaseId: string, reason: string): RequestInit {
    const body = new FormData();
    body.set('purchaseId', purchaseId);
    body.set('reason', reason);
    return { method: 'POST', body };
  }

  /** A completed seeded purchase of `agent` by someone other than demo_buyer. */
  async function completedSaleOf(agent: string): Promise<string> {
    const { data } = await service
      .from('purchases')
      .select('id')
      .eq('agent_id', agent)
      .eq('status', 'completed')
      .neq('buyer_id', ACCOUNTS.buyer.id)
      .limit(1)
      .single();
    return data!.id as string;
  }

  /** The download route's answer to the buyer of `purchaseId`, signed in as them. */
  async function buyerDownloadStatus(purchaseId: string): Promise<number> {
    const { data: purchase } = await service
      .from('purchases')
      .select('agent_id, buyer_id, users!purchases_buyer_id_fkey(email, username)')
      .eq('id', purchaseId)
      .single();
    const buyer = purchase!.users as unknown as { email: string };
    const context = routeContext(
      target,
      { id: purchase!.buyer_id, email: buyer.email, role: 'buyer' },
      await signedInClient(target, buyer.email),
    );
    const url = new URL(`http://localhost/agent/${purchase!.agent_id}/download`);
    const response = await downloadLoader({
      request: new Request(url),
      context,
      url,
      params: { agentId: purchase!.agent_id },
    } as never);
    return response.status;
  }

  it("lists only the seller's own sales, newest first, with totals of completed sales", async () => {
    const data = await earnings.loader(args('seller', '/dashboard/earnings'));
    const { data: own } = await service.from('purchases').select('amount, status').eq('seller_id', ACCOUNTS.seller.id);
    expect(data.sales.total).toBe(own!.length);
    const dates = data.sales.rows.map((row) => row.createdAt);
    expect(dates).toEqual(dates.toSorted().reverse());
    expect(data.sales.rows.some((row) => row.agentName === 'CampaignPilot' && row.buyerUsername === 'demo_buyer')).toBe(
      true,
    );
    const sum = (status: string) =>
      own!.filter((row) => row.status === status).reduce((total, row) => total + Number(row.amount), 0);
    expect(data.earnings.total.gross).toBeCloseTo(sum('completed') + sum('refunded'), 2);
    expect(data.earnings.total.refunds).toBeCloseTo(sum('refunded'), 2);
    expect(data.testMode).toBe(true);
  });

  it("refunds a seller's own sale with a reason; the buyer loses it and the count drops", async () => {
    const purchaseId = await completedSaleOf(agentId(1));
    const stats = async () =>
      (await service.from('agent_stats').select('purchase_count').eq('agent_id', agentId(1)).single()).data!
        .purchase_count as number;
    const before = await stats();
    expect(await buyerDownloadStatus(purchaseId)).not.toBe(403);
    const response = await answer(
      earnings.action(
        args('seller', `/dashboard/earnings?refund=${purchaseId}`, refundForm(purchaseId, 'Duplicate purchase')),
      ),
    );
    expect(response.status).toBe(303);
    expect(response.location).toBe('/dashboard/earnings');
    const { data: row } = await service
      .from('purchases')
      .select('status, status_reason, refunded_by, refunded_at')
      .eq('id', purchaseId)
      .single();
    expect(row).toMatchObject({
      status: 'refunded',
      status_reason: 'Duplicate purchase',
      refunded_by: ACCOUNTS.seller.id,
    });
    expect(row!.refunded_at).not.toBeNull();
    expect(await stats()).toBe(before - 1);
    expect(await buyerDownloadStatus(purchaseId)).toBe(403);

    const again = await answer(
      earnings.action(args('seller', '/dashboard/earnings', refundForm(purchaseId, 'Duplicate purchase'))),
    );
    expect(again.status).toBe(409);
    expect(again.result?.message).toBe(REFUND_REFUSALS['not-completed'].message);
  });

  it("refuses another seller's sale and a short reason with a message on the page", async () => {
    const purchaseId = await completedSaleOf(agentId(1)); // demo_seller's agent
    const forbidden = await answer(
      earnings.action(args('nova', '/dashboard/earnings', refundForm(purchaseId, 'Not mine to refund'))),
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.result?.message).toBe(REFUND_REFUSALS.forbidden.message);
    const short = await answer(earnings.action(args('seller', '/dashboard/earnings', refundForm(purchaseId, 'no'))));
    expect(short.status).toBe(400);
    expect(short.result?.error?.reason?.[0]).toContain('at least 3 characters');
    expect((await service.from('purchases').select('status').eq('id', purchaseId).single()).data?.status).toBe(
      'completed',
    );
  });

  it('refuses a buyer on both pages (403)', async () => {
    expect((await answer(earnings.loader(args('buyer', '/dashboard/earnings')))).status).toBe(403);
    expect(
      (await answer(disputes.action(args('buyer', '/dashboard/disputes', refundForm(agentId(1), 'Give it back')))))
        .status,
    ).toBe(403);
  });

  it('lets an admin search all purchases and refund any completed one', async () => {
    const found = await disputes.loader(args('admin', '/dashboard/disputes?q=demo_buyer'));
    expect(found.sales.total).toBeGreaterThanOrEqual(9);
    expect(found.sales.rows.every((row) => row.buyerUsername === 'demo_buyer')).toBe(true);
    const byAgent = await disputes.loader(args('admin', '/dashboard/disputes?q=campaignpilot'));
    expect(byAgent.sales.rows.length).toBeGreaterThan(0);
    expect(byAgent.sales.rows.every((row) => row.agentName === 'CampaignPilot')).toBe(true);
    expect((await disputes.loader(args('admin', '/dashboard/disputes?q=%25_nothing'))).sales.total).toBe(0);
    const all = await disputes.loader(args('admin', '/dashboard/disputes?page=2'));
    expect(all.sales.page).toBe(2);
    expect(all.sales.rows).toHaveLength(25);
    const last = await disputes.loader(args('admin', '/dashboard/disputes?page=999'));
    expect(last.sales.page).toBe(last.sales.pageCount);

    const purchaseId = await completedSaleOf(agentId(2)); // nova_labs' agent
    const response = await answer(
      disputes.action(args('admin', '/dashboard/disputes?q=x', refundForm(purchaseId, 'Chargeback from the bank'))),
    );
    expect(response.status).toBe(303);
    expect(response.location).toBe('/dashboard/disputes?q=x');
    expect((await service.from('purchases').select('status').eq('id', purchaseId).single()).data?.status).toBe(
      'refunded',
    );
  });
});

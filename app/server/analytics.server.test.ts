/**
 * Analytics against the embedded backend (seeded, in memory) with real supabase-js clients: views
 * are counted once per visitor, agent and day (never the seller's own, never a draft), a seller's
 * figures hold their own completed sales only, and the platform's figures are for administrators
 * and are the ones the overview's Platform Insights are computed from.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { signedInClient } from '../../tests/support/route-context';
import { sumOf } from '~/lib/analytics';
import {
  countAgentView,
  flushViews,
  getPlatformActiveUsers,
  getPlatformDays,
  getPlatformInsights,
  getSellerAnalytics,
  recordViews,
  visitorOf,
} from './analytics.server';

const NOVA = '00000000-0000-4000-8000-000000000011'; // nova_labs, a seller
const DEMO_BUYER = '00000000-0000-4000-8000-000000000001';
const OTHER_BUYER = '00000000-0000-4000-8000-000000000021';
const DRAFT = 'a0000000-0000-4000-8000-000000000073'; // demo_seller's draft

const today = () => new Date().toISOString().slice(0, 10);

describe.skipIf(isHostedTarget)('analytics', () => {
  let target: ContractTarget;
  let service: SupabaseClient;
  let nova: SupabaseClient;
  let seller: SupabaseClient;
  let admin: SupabaseClient;
  let agentId: string;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    [nova, seller, admin] = await Promise.all([
      signedInClient(target, 'nova.labs@demo.test'),
      signedInClient(target, 'seller@demo.test'),
      signedInClient(target, 'admin@demo.test'),
    ]);
    const agent = await service
      .from('agents')
      .insert({
        name: 'Analytics Probe',
        description: 'd',
        price: 20,
        category: 'Sales',
        seller_id: NOVA,
        status: 'published',
      })
      .select('id')
      .single();
    if (agent.error) throw agent.error;
    agentId = agent.data.id as string;
  });
  afterAll(() => target?.close());

  async function buy(buyerId: string, refund = false) {
    const purchase = await service
      .from('purchases')
      .insert({ buyer_id: buyerId, agent_id: agentId, list_price: 20, amount: 20, status: 'completed' })
      .select('id')
      .single();
    if (purchase.error) throw purchase.error;
    if (refund) {
      const refunded = await service.from('purchases').update({ status: 'refunded' }).eq('id', purchase.data.id);
      if (refunded.error) throw refunded.error;
    }
  }

  it('counts one view per visitor, agent and day; never the seller’s own, never a draft', async () => {
    const visitor = crypto.randomUUID();
    const view = (agent: string, visitorId: string, signedIn = false) => ({ agentId: agent, visitorId, signedIn });
    expect(await recordViews(service, [view(agentId, visitor)])).toBe(1);
    expect(await recordViews(service, [view(agentId, visitor)])).toBe(0);
    // One batch: a repeat inside it, the seller's own view and a draft count nothing.
    const batch = [
      view(agentId, DEMO_BUYER, true),
      view(agentId, DEMO_BUYER, true),
      view(agentId, NOVA, true),
      view(DRAFT, visitor),
    ];
    expect(await recordViews(service, batch)).toBe(1);
    expect(await recordViews(service, [])).toBe(0);
    // Nobody writes views through the API, and only the seller and admins read them.
    const forged = await nova.rpc('record_agent_views', {
      views: [{ agent_id: agentId, visitor_id: crypto.randomUUID(), signed_in: false }],
    });
    expect(forged.error).not.toBeNull();
    const read = await seller.from('agent_views').select('visitor_id').eq('agent_id', agentId);
    expect(read.data).toEqual([]);
  });

  it('gives an anonymous visitor a random id in an HttpOnly cookie, and keeps it', async () => {
    const first = await visitorOf(new Request('http://localhost/agent/x'), null);
    expect(first.signedIn).toBe(false);
    expect(first.setCookie).toMatch(/^am_visitor=.+; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = first.setCookie!.split(';')[0]!;
    const again = await visitorOf(new Request('http://localhost/agent/x', { headers: { cookie } }), null);
    expect(again).toEqual({ visitorId: first.visitorId, signedIn: false, setCookie: null });
    expect(await visitorOf(new Request('http://localhost/agent/x'), DEMO_BUYER)).toEqual({
      visitorId: DEMO_BUYER,
      signedIn: true,
      setCookie: null,
    });
    // The seller's own page view and a draft: nothing to count, no cookie.
    const connection = { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey };
    const request = new Request('http://localhost/agent/x');
    expect(
      await countAgentView(
        { request, connection, viewerId: NOVA },
        { id: agentId, sellerId: NOVA, status: 'published' },
      ),
    ).toBeUndefined();
    expect(
      await countAgentView({ request, connection, viewerId: null }, { id: DRAFT, sellerId: NOVA, status: 'draft' }),
    ).toBeUndefined();
    const counted = await countAgentView(
      { request, connection, viewerId: null },
      { id: agentId, sellerId: NOVA, status: 'published' },
    );
    expect(counted?.headers['Set-Cookie']).toMatch(/^am_visitor=/);
  });

  it('writes every view it gathers (in batches), one per visitor and day, by the time it is flushed', async () => {
    const created = await service
      .from('agents')
      .insert({
        name: 'Batch Probe',
        description: 'd',
        price: 5,
        category: 'Sales',
        seller_id: NOVA,
        status: 'published',
      })
      .select('id')
      .single();
    if (created.error) throw created.error;
    const agent = { id: created.data.id as string, sellerId: NOVA, status: 'published' };
    const connection = { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey };
    // 700 new visitors (more than one batch) and each of them back again: 700 views.
    const cookies: string[] = [];
    for (let visit = 0; visit < 700; visit++) {
      const counted = await countAgentView(
        { request: new Request('http://localhost/agent/x'), connection, viewerId: null },
        agent,
      );
      cookies.push(counted!.headers['Set-Cookie']!.split(';')[0]!);
    }
    for (const cookie of cookies.slice(0, 50)) {
      const headers = { cookie };
      expect(
        await countAgentView(
          { request: new Request('http://localhost/agent/x', { headers }), connection, viewerId: null },
          agent,
        ),
      ).toBeUndefined();
    }
    await countAgentView({ request: new Request('http://localhost/agent/x'), connection, viewerId: DEMO_BUYER }, agent);
    await flushViews();
    const stored = await service
      .from('agent_views')
      .select('visitor_id, signed_in', { count: 'exact', head: true })
      .eq('agent_id', agent.id);
    expect(stored.count).toBe(701);
    const signedIn = await service
      .from('agent_views')
      .select('visitor_id')
      .eq('agent_id', agent.id)
      .eq('signed_in', true);
    expect(signedIn.data).toEqual([{ visitor_id: DEMO_BUYER }]);
  });

  it('gives a seller their own completed sales per day and per agent, without refunds', async () => {
    const before = await getSellerAnalytics(nova);
    expect(before.days).toHaveLength(30);
    expect(before.days.at(-1)?.day).toBe(today());
    await buy(DEMO_BUYER);
    await buy(OTHER_BUYER, true);

    const after = await getSellerAnalytics(nova);
    expect(after.days.at(-1)!.sales).toBe(before.days.at(-1)!.sales + 1);
    expect(after.days.at(-1)!.revenue).toBe(before.days.at(-1)!.revenue + 20);
    expect(after.totals.sales).toBe(sumOf(after.days, (day) => day.sales));
    expect(after.totals.revenue).toBe(sumOf(after.days, (day) => day.revenue, true));
    const probe = after.agents.find((agent) => agent.id === agentId);
    // Views: the anonymous visitor, the demo buyer and countAgentView's new visitor (in the background).
    await expect.poll(async () => (await getSellerAnalytics(nova)).agents.find((a) => a.id === agentId)?.views).toBe(3);
    expect(probe).toMatchObject({ name: 'Analytics Probe', sales: 1, revenue: 20 });
    expect(after.totals.conversion).toBe(after.totals.views ? after.totals.sales / after.totals.views : null);

    // Another seller sees none of it.
    const other = await getSellerAnalytics(seller);
    expect(other.agents.some((agent) => agent.id === agentId)).toBe(false);
  });

  it('gives administrators the platform’s days, the same the Platform Insights are computed from', async () => {
    const days = await getPlatformDays(admin);
    expect(days).toHaveLength(30);
    const last = days.at(-1)!;
    expect(last.day).toBe(today());
    expect(last.purchases).toBeGreaterThanOrEqual(1);
    expect(last.newAgents).toBeGreaterThanOrEqual(1);
    expect(last.activeUsers).toBeGreaterThanOrEqual(1);

    // Over the period each active user counts once: at least today's, at most the days added up.
    const activeUsers = await getPlatformActiveUsers(admin);
    expect(activeUsers).toBeGreaterThanOrEqual(last.activeUsers);
    expect(activeUsers).toBeLessThanOrEqual(sumOf(days, (day) => day.activeUsers));
    await expect(getPlatformActiveUsers(seller)).rejects.toMatchObject({ init: { status: 503 } });

    const insights = await getPlatformInsights(admin);
    expect(insights.newAgents).toBe(sumOf(days, (day) => day.newAgents));
    expect(insights.dailyActiveUsers).toBe(last.activeUsers);

    // Anyone else is refused by the database itself (the app answers 503 for a failed read).
    const refused = await nova.rpc('platform_daily_figures', { days: 30 });
    expect(refused.error?.code).toBe('42501');
    await expect(getPlatformDays(seller)).rejects.toMatchObject({ init: { status: 503 } });
  });
});

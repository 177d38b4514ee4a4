/**
 * The agent page queries against the embedded backend (seeded, in memory), through real
 * supabase-js clients so row-level security applies. Adds seven reviews to agent 7 (none in the
 * seed) to exercise paging, which no seeded agent can (the most-reviewed has four).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, userClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { getVisibleAgent, loadAgentPage, loadAgentPageFor, ownsAgent } from './agent-detail.server';

const agentId = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const accountId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const DEMO_BUYER = accountId(1);
const DEMO_SELLER = accountId(2);
const AGENT = agentId(7); // demo_seller's Brand Voice Guardian: no purchases, no reviews
const REVIEWERS = [21, 22, 23, 24, 25, 26, 27].map(accountId); // alex_rivera … diego_alvarez

describe.skipIf(isHostedTarget)('agent page queries', () => {
  let target: ContractTarget;
  let anon: SupabaseClient;

  async function signedIn(email: string): Promise<SupabaseClient> {
    const { data, error } = await anonClient(target).auth.signInWithPassword({ email, password: 'demo-password' });
    if (error) throw error;
    return userClient(target, data.session.access_token);
  }

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    anon = anonClient(target);
    const service = serviceClient(target);
    const purchases = await service.from('purchases').insert(
      REVIEWERS.map((buyer) => ({
        buyer_id: buyer,
        agent_id: AGENT,
        list_price: 59,
        amount: 59,
        status: 'completed',
      })),
    );
    if (purchases.error) throw purchases.error;
    // Review i (0…6) is i days old with rating 5, 4, 3, 2, 1, 5, 4.
    const reviews = await service.from('reviews').insert(
      REVIEWERS.map((buyer, i) => ({
        agent_id: AGENT,
        buyer_id: buyer,
        rating: [5, 4, 3, 2, 1, 5, 4][i],
        review_text: `Review ${i}`,
        created_at: new Date(Date.now() - (i + 1) * 86_400_000).toISOString(),
      })),
    );
    if (reviews.error) throw reviews.error;
  });
  afterAll(() => target?.close());

  it('loads the agent, its ratings and the first page of reviews, newest first', async () => {
    const page = await loadAgentPage(anon, { agentId: AGENT, viewerId: null, requestedPage: 1 });
    expect(page?.agent).toMatchObject({ id: AGENT, name: 'Brand Voice Guardian', status: 'published' });
    expect(page?.agent.reviewCount).toBe(7);
    expect(page?.agent.purchaseCount).toBe(7);
    expect(page?.agent.avgRating).toBeCloseTo(24 / 7, 2);
    expect(page?.ratingCounts).toEqual([1, 2, 3, 4, 5].map((rating) => ({ rating, count: rating >= 4 ? 2 : 1 })));
    expect(page?.paging).toMatchObject({ page: 1, pageCount: 2 });
    expect(page?.reviews.map((review) => review.text)).toEqual([
      'Review 0',
      'Review 1',
      'Review 2',
      'Review 3',
      'Review 4',
    ]);
    expect(page?.reviews[0]).toMatchObject({ username: 'alex_rivera', rating: 5 });
    expect(page?.owned).toBe(false);
  });

  it('pages the older reviews and clamps pages past the end', async () => {
    for (const requestedPage of [2, 9]) {
      const page = await loadAgentPage(anon, { agentId: AGENT, viewerId: null, requestedPage });
      expect(page?.paging).toMatchObject({ page: 2, pageCount: 2 });
      expect(page?.reviews.map((review) => review.text)).toEqual(['Review 5', 'Review 6']);
    }
  });

  it('hides drafts and unknown agents from anonymous visitors', async () => {
    expect(await getVisibleAgent(anon, agentId(73))).toBeNull();
    expect(await getVisibleAgent(anon, agentId(999))).toBeNull();
    expect(await loadAgentPage(anon, { agentId: agentId(74), viewerId: null, requestedPage: 1 })).toBeNull();
  });

  it('shows the seller their own draft', async () => {
    const seller = await signedIn('seller@demo.test');
    const draft = await getVisibleAgent(seller, agentId(73));
    expect(draft).toMatchObject({ name: 'Referral Engine (beta)', status: 'draft', sellerId: DEMO_SELLER });
  });

  it('tells completed purchases from pending, failed and refunded ones', async () => {
    const buyer = await signedIn('buyer@demo.test');
    expect(await ownsAgent(buyer, DEMO_BUYER, agentId(1))).toBe(true);
    for (const n of [2, 63, 8, 21]) expect(await ownsAgent(buyer, DEMO_BUYER, agentId(n))).toBe(false);
    // Another buyer's purchases are invisible to the demo buyer (RLS), never "owned".
    expect(await ownsAgent(buyer, REVIEWERS[0]!, AGENT)).toBe(false);
  });

  it('shares a published page between viewers and reads only ownership and hidden agents per viewer', async () => {
    const buyer = await signedIn('buyer@demo.test');
    const seller = await signedIn('seller@demo.test');
    const clients = (viewerClient: SupabaseClient) => ({ publicClient: anon, viewerClient });
    const first = { viewerId: null, requestedPage: 1 };

    const asBuyer = await loadAgentPageFor(clients(buyer), { ...first, agentId: agentId(1), viewerId: DEMO_BUYER });
    const asAnon = await loadAgentPageFor(clients(anon), { ...first, agentId: agentId(1) });
    expect(asBuyer).toMatchObject({ agent: { id: agentId(1), status: 'published' }, owned: true });
    expect(asAnon?.owned).toBe(false);
    expect(asAnon?.agent).toEqual(asBuyer?.agent);

    // What anon cannot read comes from the viewer's own client, and only for those allowed.
    expect(await loadAgentPageFor(clients(anon), { ...first, agentId: agentId(73) })).toBeNull();
    const draft = await loadAgentPageFor(clients(seller), { ...first, agentId: agentId(73), viewerId: DEMO_SELLER });
    expect(draft?.agent).toMatchObject({ status: 'draft', sellerId: DEMO_SELLER });
    const archived = await loadAgentPageFor(clients(buyer), { ...first, agentId: agentId(75), viewerId: DEMO_BUYER });
    expect(archived).toMatchObject({ agent: { status: 'archived' }, owned: true });
    expect(await loadAgentPageFor(clients(anon), { ...first, agentId: agentId(75) })).toBeNull();
  });
});

/**
 * The seller service against the embedded backend (real supabase-js clients, real database
 * rules): a buyer becomes a seller once, with the details of the form; a storefront is read as
 * its viewer may see it (demo_seller is members only: hidden from anonymous visitors), 404
 * (null) for buyers and unknown names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, userClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { getVisibleAgent } from '~/server/agent-detail.server';
import { forgetCatalogue, listFeaturedAgents } from '~/server/agents.server';
import { listCollection } from '~/server/collection.server';
import { becomeSeller, getStorefront, toFigures, type Storefront } from '~/server/sellers.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const SELLER = '00000000-0000-4000-8000-000000000002'; // demo_seller
const BUYER = '00000000-0000-4000-8000-000000000030'; // fatima_khan, a buyer nobody else upgrades here
const NOVA = '00000000-0000-4000-8000-000000000011'; // nova_labs: public, display name Nova Labs

describe('toFigures', () => {
  it('reads numbers sent as text, and no row as zero', () => {
    expect(toFigures({ agent_count: '3', total_sales: '7', review_count: '2', avg_rating: '4.50' })).toEqual({
      agentCount: 3,
      totalSales: 7,
      reviewCount: 2,
      avgRating: 4.5,
    });
    expect(toFigures(undefined)).toEqual({ agentCount: 0, totalSales: 0, reviewCount: 0, avgRating: null });
  });
});

describe.skipIf(isHostedTarget)('seller service', () => {
  let target: ContractTarget;
  let service: AppSupabaseClient;
  let anon: AppSupabaseClient;
  let member: AppSupabaseClient;
  /** The storefront as an anonymous visitor (`asMember`: as a signed-in buyer) sees it. */
  const storefront = (username: string, page: number, asMember = false) =>
    getStorefront({ publicClient: anon, viewerClient: asMember ? member : anon }, username, page);
  const shown = async (username: string, page: number, asMember = false) =>
    (await storefront(username, page, asMember)) as Storefront | null;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target) as unknown as AppSupabaseClient;
    anon = anonClient(target) as unknown as AppSupabaseClient;
    const { data, error } = await anonClient(target).auth.signInWithPassword({
      email: 'buyer@demo.test',
      password: 'demo-password',
    });
    if (error) throw error;
    member = userClient(target, data.session.access_token) as unknown as AppSupabaseClient;
  });
  afterAll(() => target?.close());

  it('reads demo_seller’s storefront: profile, figures and the first page of published agents', async () => {
    expect(await storefront('demo_seller', 1)).toEqual({
      kind: 'hidden',
      username: 'demo_seller',
      visibility: 'members',
    });
    const page = await shown('demo_seller', 1, true);
    expect(page?.seller).toMatchObject({
      id: SELLER,
      username: 'demo_seller',
      name: 'demo_seller',
      pitch: null,
      email: 'seller@demo.test', // shown to members
      phone: null, // not shown
    });
    expect(page?.figures.agentCount).toBe(12);
    expect(page?.agents).toHaveLength(12);
    expect(page?.agents.every((agent) => agent.sellerUsername === 'demo_seller')).toBe(true);
    expect(page?.agents.every((agent) => agent.sellerVisibility === 'members' && !agent.sellerAvatar)).toBe(true);
    expect(await storefront('demo_seller', 2, true)).toMatchObject({ agents: [] });
  });

  it('has no storefront for a buyer or an unknown name', async () => {
    expect(await storefront('fatima_khan', 1)).toBeNull();
    expect(await storefront('nobody_by_that_name', 1)).toBeNull();
  });

  it('makes a buyer a seller once, with the form’s details, and shows them on the storefront at once', async () => {
    const form = { displayName: 'Fatima Builds', pitch: 'CRM agents.', responseTimeHours: 4 };
    expect(await becomeSeller(service, BUYER, form)).toEqual({ ok: true });
    const { data } = await service
      .from('users')
      .select('user_type, display_name, seller_pitch, response_time_hours, seller_terms_accepted_at')
      .eq('id', BUYER)
      .single();
    expect(data).toMatchObject({
      user_type: 'seller',
      display_name: 'Fatima Builds',
      seller_pitch: 'CRM agents.',
      response_time_hours: 4,
    });
    expect(data?.seller_terms_accepted_at).toBeTruthy();
    // The earlier 404 read is not shared any longer.
    expect((await shown('fatima_khan', 1))?.seller).toMatchObject({
      name: 'Fatima Builds',
      pitch: 'CRM agents.',
    });

    // A second time (or for a seller) nothing changes.
    expect(await becomeSeller(service, BUYER, { ...form, displayName: 'Other' })).toEqual({
      ok: false,
      reason: 'already-seller',
    });
    expect(await becomeSeller(service, SELLER, form)).toEqual({ ok: false, reason: 'already-seller' });
    forgetCatalogue();
    expect((await shown('fatima_khan', 1))?.seller.name).toBe('Fatima Builds');
    expect((await shown('demo_seller', 1, true))?.seller.name).toBe('demo_seller');
  });
  it('names a seller one way everywhere: the display name where privacy shows it, else the username', async () => {
    // Every page's reading of a seller's agents: the storefront, the cards, the agent page, My Collection.
    const namesOf = async (username: string, asMember: boolean) => {
      forgetCatalogue();
      const client = asMember ? member : anon;
      const page = await storefront(username, 1, asMember);
      const { data: agent } = await service
        .from('agents_with_stats')
        .select('id')
        .eq('seller_username', username)
        .eq('status', 'published')
        .limit(1)
        .single();
      const detail = await getVisibleAgent(client, agent!.id!);
      const cards = (await listFeaturedAgents(anon, 100)).filter((card) => card.sellerUsername === username);
      return {
        storefront: page?.kind === 'shown' ? page.seller.name : page?.kind,
        storefrontCards: page?.kind === 'shown' ? [...new Set(page.agents.map((card) => card.sellerName))] : [],
        cards: [...new Set(cards.map((card) => card.sellerName))],
        agentPage: detail?.sellerName,
      };
    };
    // nova_labs: public, trades as "Nova Labs".
    expect(await namesOf('nova_labs', false)).toEqual({
      storefront: 'Nova Labs',
      storefrontCards: ['Nova Labs'],
      cards: ['Nova Labs'],
      agentPage: 'Nova Labs',
    });
    // The demo buyer owns one of nova_labs' agents: My Collection names it the same way.
    const connection = { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey };
    const collection = await listCollection(member, connection, '00000000-0000-4000-8000-000000000001', 'UTC');
    const novaItem = collection.items.find((item) => item.sellerName === 'Nova Labs');
    expect(novaItem, 'a nova_labs agent in the demo buyer’s collection').toBeTruthy();
    expect(collection.items.some((item) => item.sellerName === 'nova_labs')).toBe(false);

    // Members only: anonymous visitors see the username, signed-in members the display name.
    await service.from('user_settings').update({ profile_visibility: 'members' }).eq('user_id', NOVA);
    try {
      const asVisitor = await namesOf('nova_labs', false);
      expect(asVisitor.storefront).toBe('hidden');
      expect(asVisitor.agentPage).toBe('nova_labs');
      expect(asVisitor.cards).toEqual(['nova_labs']); // the cards are read anonymously, for everyone
      const asMember = await namesOf('nova_labs', true);
      expect(asMember.storefront).toBe('Nova Labs');
      expect(asMember.agentPage).toBe('Nova Labs');
    } finally {
      await service.from('user_settings').update({ profile_visibility: 'public' }).eq('user_id', NOVA);
      forgetCatalogue();
    }
    // No display name: the username (demo_seller).
    expect((await namesOf('demo_seller', true)).agentPage).toBe('demo_seller');
  });
});

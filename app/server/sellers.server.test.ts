/**
 * The seller service against the embedded backend (real supabase-js clients, real database
 * rules): a buyer becomes a seller once, with the details of the form; a storefront is read as
 * its viewer may see it (demo_seller is members only: hidden from anonymous visitors), 404
 * (null) for buyers and unknown names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, userClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { forgetCatalogue } from '~/server/agents.server';
import { becomeSeller, getStorefront, toFigures, type Storefront } from '~/server/sellers.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const SELLER = '00000000-0000-4000-8000-000000000002'; // demo_seller
const BUYER = '00000000-0000-4000-8000-000000000030'; // fatima_khan, a buyer nobody else upgrades here

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
});

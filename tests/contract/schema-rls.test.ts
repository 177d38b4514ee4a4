/**
 * Row-level security of the real schema, seen through the Data API with the unmodified
 * supabase-js client: each caller sees and changes only what the policies allow. Runs against
 * the seeded embedded backend, or a hosted project with the same migrations and seed.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../support/clients';
import { startContractTarget, type ContractTarget } from '../support/contract-target';

const DEMO_BUYER = '00000000-0000-4000-8000-000000000001';
const DEMO_SELLER = '00000000-0000-4000-8000-000000000002';
const SELLER_DRAFT = 'a0000000-0000-4000-8000-000000000073';

let target: ContractTarget;
let anon: SupabaseClient;
let service: SupabaseClient;
let buyer: SupabaseClient;
let seller: SupabaseClient;
let stranger: SupabaseClient;
let strangerId: string;

async function signedIn(email: string, password: string) {
  const client = anonClient(target);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { client, id: data.user.id };
}

beforeAll(async () => {
  target = await startContractTarget();
  anon = anonClient(target);
  service = serviceClient(target);
  buyer = (await signedIn('buyer@demo.test', 'demo-password')).client;
  seller = (await signedIn('seller@demo.test', 'demo-password')).client;
  const email = `stranger-${Date.now()}@example.com`;
  const signUp = await anonClient(target).auth.signUp({
    email,
    password: 'stranger-password',
    options: { data: { username: `stranger${Date.now()}`, user_type: 'admin' } },
  });
  if (signUp.error) throw signUp.error;
  ({ client: stranger, id: strangerId } = await signedIn(email, 'stranger-password'));
});

afterAll(() => target?.close());

describe('row-level security through the Data API', () => {
  it('lets anyone read published agents but not drafts', async () => {
    const published = await anon
      .from('agents_with_stats')
      .select('id', { count: 'exact', head: true })
      .eq('status', 'published');
    expect(published.count).toBeGreaterThanOrEqual(60);
    const draft = await anon.from('agents').select('id').eq('id', SELLER_DRAFT);
    expect(draft.data).toEqual([]);
    const asSeller = await seller.from('agents').select('id, status').eq('id', SELLER_DRAFT).single();
    expect(asSeller.data).toEqual({ id: SELLER_DRAFT, status: 'draft' });
    const asStranger = await stranger.from('agents').select('id').eq('id', SELLER_DRAFT);
    expect(asStranger.data).toEqual([]);
  });

  it("keeps a user's purchases, settings and private profile from others", async () => {
    const own = await buyer.from('purchases').select('buyer_id');
    expect(own.data?.length).toBeGreaterThan(0);
    expect(new Set(own.data?.map((row) => row.buyer_id))).toEqual(new Set([DEMO_BUYER]));

    expect((await stranger.from('purchases').select('id').eq('buyer_id', DEMO_BUYER)).data).toEqual([]);
    expect((await stranger.from('user_settings').select('user_id').eq('user_id', DEMO_BUYER)).data).toEqual([]);
    expect((await stranger.from('users').select('email, phone').eq('id', DEMO_BUYER)).data).toEqual([]);
    expect((await anon.from('purchases').select('id')).data).toEqual([]);
    expect((await anon.from('user_purchase_history').select('id')).data).toEqual([]);
  });

  it("refuses changes to another user's rows", async () => {
    const update = await stranger.from('users').update({ bio: 'hijacked' }).eq('id', DEMO_BUYER).select('id');
    expect(update.data ?? []).toEqual([]);
    const stored = await service.from('users').select('bio').eq('id', DEMO_BUYER).single();
    expect(stored.data?.bio).not.toBe('hijacked');

    const review = await service.from('reviews').select('id').eq('buyer_id', DEMO_BUYER).limit(1).single();
    const removal = await stranger.from('reviews').delete().eq('id', review.data!.id).select('id');
    expect(removal.data ?? []).toEqual([]);
    expect((await service.from('reviews').select('id').eq('id', review.data!.id)).data).toHaveLength(1);
  });

  it('never lets a buyer record or complete a purchase', async () => {
    const agent = await anon.from('agents').select('id').eq('status', 'published').limit(1).single();
    const insert = await stranger.from('purchases').insert({
      buyer_id: strangerId,
      agent_id: agent.data!.id,
      seller_id: DEMO_SELLER,
      amount: 0,
      status: 'completed',
    });
    expect(insert.error?.code).toBe('42501');
    const pending = await service
      .from('purchases')
      .select('id')
      .eq('buyer_id', DEMO_BUYER)
      .eq('status', 'pending')
      .limit(1)
      .single();
    const complete = await buyer.from('purchases').update({ status: 'completed' }).eq('id', pending.data!.id);
    expect(complete.error?.code).toBe('42501');
    const stored = await service.from('purchases').select('status').eq('id', pending.data!.id).single();
    expect(stored.data?.status).toBe('pending');
  });

  it('never lets a user promote themselves, nor sign up as admin', async () => {
    const profile = await stranger.from('users').select('user_type').eq('id', strangerId).single();
    expect(profile.data?.user_type).toBe('buyer');
    const promote = await stranger.from('users').update({ user_type: 'admin' }).eq('id', strangerId);
    expect(promote.error?.code).toBe('42501');
    const stored = await service.from('users').select('user_type').eq('id', strangerId).single();
    expect(stored.data?.user_type).toBe('buyer');
  });

  it('refuses anonymous newsletter writes, a 200-row batch included; the service role still writes', async () => {
    const batch = Array.from({ length: 200 }, (_, i) => ({ email: `bulk-${i}-${Date.now()}@example.com` }));
    const viaClient = await anon.from('newsletter_subscribers').insert(batch);
    expect([viaClient.status, viaClient.error?.code]).toEqual([401, '42501']);
    // The same attack as raw HTTP with the anon key, as a script would send it.
    const raw = await fetch(`${target.url}/rest/v1/newsletter_subscribers`, {
      method: 'POST',
      headers: {
        apikey: target.anonKey,
        authorization: `Bearer ${target.anonKey}`,
        'content-type': 'application/json',
        prefer: 'return=minimal',
      },
      body: JSON.stringify(batch),
    });
    expect(raw.status).toBe(401);
    const signedIn = await stranger.from('newsletter_subscribers').insert({ email: `s-${Date.now()}@example.com` });
    expect([signedIn.status, signedIn.error?.code]).toEqual([403, '42501']);
    const stored = await service
      .from('newsletter_subscribers')
      .select('email', { count: 'exact', head: true })
      .like('email', 'bulk-%');
    expect(stored.count).toBe(0);
    const trusted = await service.from('newsletter_subscribers').insert({ email: `trusted-${Date.now()}@example.com` });
    expect(trusted.status).toBe(201);
  });

  it('refuses a username that impersonates another user, and a script URL as website', async () => {
    for (const username of ['demo_seller\u200b', ' demo_seller', 'Demo_Seller', 'demo_seIler', 'd\u0435mo_seller']) {
      const rename = await stranger.from('users').update({ username }).eq('id', strangerId);
      expect(rename.error?.code, JSON.stringify(username)).toMatch(/^(23514|23505)$/);
    }
    const website = await stranger.from('users').update({ website: 'javascript:alert(1)' }).eq('id', strangerId);
    expect([website.status, website.error?.code]).toEqual([400, '23514']);
    const stored = await service.from('users').select('username, website').eq('id', strangerId).single();
    expect(stored.data?.username).toMatch(/^stranger\d+$/);
    expect(stored.data?.website).toBeNull();
    const fine = await stranger.from('users').update({ website: 'https://stranger.example' }).eq('id', strangerId);
    expect(fine.error).toBeNull();
  });

  it('refuses a review without a completed purchase', async () => {
    const agent = await anon.from('agents').select('id').eq('status', 'published').limit(1).single();
    const review = await stranger.from('reviews').insert({ agent_id: agent.data!.id, buyer_id: strangerId, rating: 5 });
    expect(review.error).not.toBeNull();
    expect((await anon.from('reviews').select('id').eq('buyer_id', strangerId)).data).toEqual([]);
  });
});

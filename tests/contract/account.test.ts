/**
 * The account migration (20261127000300) through the unmodified supabase-js client:
 * the public avatars bucket and its own-folder policies, my_sessions() showing only the caller's
 * sessions, a deleted buyer's purchases kept anonymised for the seller, and the last
 * administrator who cannot be deleted.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

const DEMO_BUYER = '00000000-0000-4000-8000-000000000001';
const DEMO_SELLER = '00000000-0000-4000-8000-000000000002';
const DEMO_ADMIN = '00000000-0000-4000-8000-000000000003';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

let target: ContractTarget;
let service: SupabaseClient;

async function signedIn(email: string, password = 'demo-password') {
  const client = anonClient(target);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { client, id: data.user.id };
}

// Deletes seeded accounts: only on the local, in-memory target.
describe.skipIf(isHostedTarget)('account migration', () => {
  beforeAll(async () => {
    target = await startContractTarget();
    service = serviceClient(target);
  });
  afterAll(() => target?.close());

  it('stores pictures only under the owner’s folder of the public avatars bucket', async () => {
    const { data: bucket } = await service.storage.getBucket('avatars');
    expect(bucket).toMatchObject({ public: true, file_size_limit: 2 * 1024 * 1024 });
    const { client: buyer } = await signedIn('buyer@demo.test');
    const own = await buyer.storage.from('avatars').upload(`${DEMO_BUYER}/me.png`, PNG, { contentType: 'image/png' });
    expect(own.error).toBeNull();
    const foreign = await buyer.storage
      .from('avatars')
      .upload(`${DEMO_SELLER}/me.png`, PNG, { contentType: 'image/png' });
    expect(foreign.error).not.toBeNull();
    const text = await buyer.storage
      .from('avatars')
      .upload(`${DEMO_BUYER}/x.txt`, new Uint8Array([1]), { contentType: 'text/plain' });
    expect(text.error).not.toBeNull();
    const publicUrl = anonClient(target).storage.from('avatars').getPublicUrl(`${DEMO_BUYER}/me.png`).data.publicUrl;
    expect((await fetch(publicUrl)).status).toBe(200);
  });

  it('my_sessions() lists only the caller’s sessions', async () => {
    const first = await signedIn('seller@demo.test');
    await signedIn('seller@demo.test');
    const { client: buyer } = await signedIn('buyer@demo.test');
    const mine = await first.client.rpc('my_sessions');
    expect(mine.error).toBeNull();
    expect(mine.data.length).toBeGreaterThanOrEqual(2);
    for (const row of mine.data as { id: string; created_at: string; last_active_at: string }[]) {
      expect(row.created_at).toBeTruthy();
      expect(row.last_active_at).toBeTruthy();
    }
    const buyers = await buyer.rpc('my_sessions');
    const sellerIds = new Set((mine.data as { id: string }[]).map((row) => row.id));
    expect((buyers.data as { id: string }[]).some((row) => sellerIds.has(row.id))).toBe(false);
    expect((await anonClient(target).rpc('my_sessions')).error).not.toBeNull();
  });

  it('keeps a deleted buyer’s purchases for the seller, with no buyer', async () => {
    const before = await service.from('purchases').select('id').eq('buyer_id', DEMO_BUYER);
    expect(before.data?.length).toBeGreaterThan(0);
    const ids = before.data!.map((row: { id: string }) => row.id);
    const deleted = await service.auth.admin.deleteUser(DEMO_BUYER);
    expect(deleted.error).toBeNull();
    const after = await service.from('purchases').select('id, buyer_id').in('id', ids);
    expect(after.data).toHaveLength(ids.length);
    expect(after.data!.every((row: { buyer_id: string | null }) => row.buyer_id === null)).toBe(true);
    const profile = await service.from('users').select('id').eq('id', DEMO_BUYER);
    expect(profile.data).toEqual([]);
  });

  it('refuses to delete the last administrator', async () => {
    const deleted = await service.auth.admin.deleteUser(DEMO_ADMIN);
    expect(deleted.error).not.toBeNull();
    const profile = await service.from('users').select('id').eq('id', DEMO_ADMIN);
    expect(profile.data).toHaveLength(1);
  });
});

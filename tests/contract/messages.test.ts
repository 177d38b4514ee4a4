/**
 * Messages (migration 20261217000100, ADR 070) through the unmodified supabase-js client and the
 * Data API: the participants read a conversation, nobody else does; writes go only through the
 * functions; the sending rate answers HTTP 429; a block answers 403.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

const DEMO_SELLER = '00000000-0000-4000-8000-000000000002';

let target: ContractTarget;

async function signedIn(email: string, password = 'demo-password'): Promise<SupabaseClient> {
  const client = anonClient(target);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return client;
}

// Sends dozens of messages: only on the local, in-memory target.
describe.skipIf(isHostedTarget)('messages through the Data API', () => {
  let buyer: SupabaseClient;
  let seller: SupabaseClient;
  let conversation: string;

  beforeAll(async () => {
    target = await startContractTarget();
    [buyer, seller] = await Promise.all([signedIn('buyer@demo.test'), signedIn('seller@demo.test')]);
    const { data: agents } = await serviceClient(target)
      .from('agents')
      .select('id')
      .eq('seller_id', DEMO_SELLER)
      .eq('status', 'published')
      .limit(1);
    const started = await buyer.rpc('start_conversation', { agent: agents![0]!.id });
    expect(started.error).toBeNull();
    conversation = started.data as string;
  });
  afterAll(() => target?.close());

  it('the participants read it; another user, a visitor and direct writes get nothing', async () => {
    expect((await buyer.rpc('send_message', { conversation, body: 'Does it work with Gmail?' })).error).toBeNull();
    const read = await seller.from('messages').select('body').eq('conversation_id', conversation);
    expect(read.data).toEqual([{ body: 'Does it work with Gmail?' }]);

    const other = await signedIn('admin@demo.test');
    expect((await other.from('messages').select('body').eq('conversation_id', conversation)).data).toEqual([]);
    expect((await other.from('conversations').select('id').eq('id', conversation)).data).toEqual([]);
    const forged = await other.rpc('send_message', { conversation, body: 'Hello from elsewhere' });
    expect(forged.error?.code).toBe('PT404');
    expect(forged.status).toBe(404);
    const visitor = anonClient(target);
    expect((await visitor.from('messages').select('body')).error?.code).toBe('42501');
    const direct = await buyer.from('messages').insert({ conversation_id: conversation, body: 'direct' });
    expect(direct.error?.code).toBe('42501');
  });

  it('answers 403 while blocked and 429 past the sending rate', async () => {
    expect((await seller.rpc('set_conversation_blocked', { conversation, blocked: true })).error).toBeNull();
    const blocked = await buyer.rpc('send_message', { conversation, body: 'Hello?' });
    expect(blocked.status).toBe(403);
    expect(blocked.error?.message).toBe('This conversation is blocked: no new messages can be sent');
    expect((await seller.rpc('set_conversation_blocked', { conversation, blocked: false })).error).toBeNull();

    let answer = await buyer.rpc('send_message', { conversation, body: 'One' });
    for (let sent = 1; sent < 25 && !answer.error; sent++) {
      answer = await buyer.rpc('send_message', { conversation, body: `Message ${sent}` });
    }
    expect(answer.status).toBe(429);
    expect(answer.error?.message).toBe('You are sending messages too fast. Wait a minute, then send again.');
  });
  it('a block stands between the two people: no new conversation about another agent either', async () => {
    const { data: agents } = await serviceClient(target)
      .from('agents')
      .select('id')
      .eq('seller_id', DEMO_SELLER)
      .eq('status', 'published')
      .order('created_at', { ascending: false })
      .limit(1);
    expect((await seller.rpc('set_conversation_blocked', { conversation, blocked: true })).error).toBeNull();
    const another = await buyer.rpc('start_conversation', { agent: agents![0]!.id });
    expect(another.status).toBe(403);
    expect(another.error?.message).toBe('You and this seller cannot message each other');
    expect((await seller.rpc('set_conversation_blocked', { conversation, blocked: false })).error).toBeNull();
  });

  it('refuses a message of invisible characters only', async () => {
    for (const body of ['\n\n\t', '\u200b', '\u00a0 \u2060', '\ufeff']) {
      const answer = await buyer.rpc('send_message', { conversation, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('a seller with a newer Seller Policy to accept cannot change a listing through the Data API', async () => {
    const { data: mine } = await seller.from('agents').select('id, name').eq('seller_id', DEMO_SELLER).limit(1);
    const service = serviceClient(target);
    const published = await service
      .from('policy_versions')
      .insert({ document: 'seller', body: '## Rules\n\nNew rules.', summary: 'New rules.' })
      .select('version');
    expect(published.error).toBeNull();
    const changed = await seller.from('agents').update({ name: 'Renamed before accepting' }).eq('id', mine![0]!.id);
    expect(changed.status).toBe(403);
    const accepted = await seller
      .from('policy_acceptances')
      .insert({ user_id: DEMO_SELLER, document: 'seller', version: published.data![0]!.version });
    expect(accepted.error).toBeNull();
    expect((await seller.from('agents').update({ name: mine![0]!.name }).eq('id', mine![0]!.id)).error).toBeNull();
  });
});

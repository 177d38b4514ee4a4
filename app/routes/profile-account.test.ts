/**
 * The profile page's account intents and the export, through the real loaders and action
 * against the embedded backend (seeded, in memory) with real supabase-js clients: a seller's
 * export holds their agents and sales; Delete Account needs the username, unpublishes the
 * seller's agents, keeps the sold ones and their sales, and the account can no longer sign in;
 * the last administrator is refused.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { DEMO_VIEWERS, routeContext, signedInClient, type TestViewer } from '../../tests/support/route-context';
import type { FormResult } from '~/lib/form-result';
import { ACCOUNT_MESSAGES } from '~/schemas/account';
import type { AccountExport } from '~/server/account.server';
import { addPaymentMethod } from '~/server/payment-methods.server';
import { testPaymentProvider } from '~/server/payments/test-provider.server';
import * as profile from './profile';
import { loader as exportLoader } from './profile-export';

type Who = keyof typeof DEMO_VIEWERS;

describe.skipIf(isHostedTarget)('profile account intents', () => {
  let target: ContractTarget;
  let service: SupabaseClient;
  const clients = new Map<Who, SupabaseClient>();

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    for (const who of Object.keys(DEMO_VIEWERS) as Who[]) {
      clients.set(who, await signedInClient(target, DEMO_VIEWERS[who].email));
    }
  });
  afterAll(() => target?.close());

  function args(who: Who, path: string, init?: RequestInit) {
    const url = new URL(`http://localhost${path}`);
    const viewer: TestViewer = DEMO_VIEWERS[who];
    return {
      request: new Request(url, init),
      context: routeContext(target, viewer, clients.get(who)!),
      url,
      params: {},
      pattern: url.pathname.slice(1),
    } as never;
  }

  function post(fields: Record<string, string>): RequestInit {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return { method: 'POST', body };
  }

  async function failed(result: unknown): Promise<{ status: number; data: FormResult }> {
    const answer = result as { init?: { status?: number }; data: FormResult };
    return { status: answer.init?.status ?? 200, data: answer.data };
  }

  it("exports the seller's profile, agents and sales as a JSON attachment", async () => {
    const response = (await exportLoader(args('seller', '/profile/export'))) as Response;
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="agentmarket-seller-/);
    const body = (await response.json()) as AccountExport;
    expect(body).toMatchObject({ format: 'agentmarket.account-export', version: 5 });
    // The policies the seller accepted: the Terms and the Privacy Policy on sign-up, the Seller Policy.
    expect(body.policy_acceptances.map((row) => `${row.document}:${row.version}`).sort()).toEqual([
      'privacy:1',
      'seller:1',
      'terms:1',
    ]);
    expect(body.profile).toMatchObject({ id: DEMO_VIEWERS.seller.id, email: 'seller@demo.test' });
    const agents = await service.from('agents').select('id').eq('seller_id', DEMO_VIEWERS.seller.id);
    expect(body.agents.map((agent: { id: string }) => agent.id).sort()).toEqual(
      agents.data!.map((agent: { id: string }) => agent.id).sort(),
    );
    const sales = await service.from('purchases').select('id').eq('seller_id', DEMO_VIEWERS.seller.id);
    expect(body.sales).toHaveLength(sales.data!.length);
    // Their licences as a buyer, tokens and endpoints; never a token's hash or a signing secret.
    const licenses = await service.from('licenses').select('id').eq('buyer_id', DEMO_VIEWERS.seller.id);
    expect(body.licenses).toHaveLength(licenses.data!.length);
    expect(body.api_tokens).toEqual([]);
    expect(body.webhook_endpoints).toEqual([]);
    expect(JSON.stringify(body)).not.toMatch(/token_hash|whsec_/);
  });

  it("exports the member's subscriptions and subscription charges, and no one else's", async () => {
    const buyerId = DEMO_VIEWERS.buyer.id;
    // An ended membership of the buyer, whatever the seed gave them: one subscription, one charge.
    const started = new Date(Date.now() - 40 * 86_400_000);
    const ended = new Date(started.getTime() + 30 * 86_400_000);
    const subscription = await service
      .from('subscriptions')
      .insert({
        user_id: buyerId,
        tier: 'premium',
        status: 'canceled',
        current_period_start: started.toISOString(),
        current_period_end: ended.toISOString(),
        canceled_at: ended.toISOString(),
        provider: 'test',
      })
      .select('id')
      .single();
    expect(subscription.error).toBeNull();
    const charge = await service.from('subscription_charges').insert({
      user_id: buyerId,
      subscription_id: subscription.data!.id,
      tier: 'premium',
      kind: 'subscription',
      description: 'Premium membership - monthly',
      amount: 19,
      status: 'paid',
      provider: 'test',
      idempotency_key: crypto.randomUUID(),
    });
    expect(charge.error).toBeNull();
    const card = await addPaymentMethod(service, testPaymentProvider, {
      userId: buyerId,
      card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' },
    });
    expect(card.ok).toBe(true);

    const response = (await exportLoader(args('buyer', '/profile/export'))) as Response;
    const body = (await response.json()) as AccountExport;
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();
    const held = async (table: 'subscriptions' | 'subscription_charges') =>
      ids((await service.from(table).select('id').eq('user_id', buyerId)).data!);
    expect(ids(body.subscriptions)).toEqual(await held('subscriptions'));
    expect(ids(body.subscription_charges)).toEqual(await held('subscription_charges'));
    expect(body.subscriptions.map((row) => row.id)).toContain(subscription.data!.id);
    expect(body.subscription_charges.find((row) => row.subscription_id === subscription.data!.id)).toMatchObject({
      amount: 19,
      status: 'paid',
      description: 'Premium membership - monthly',
    });
    for (const row of [...body.subscriptions, ...body.subscription_charges]) expect(row.user_id).toBe(buyerId);
    // The saved card as the product keeps it: brand, last four, expiry; never the number.
    expect(body.payment_methods).toContainEqual(
      expect.objectContaining({ user_id: buyerId, brand: 'Visa', last4: '4242', exp_month: 12 }),
    );
    expect(JSON.stringify(body)).not.toContain('4242424242424242');
  });

  it('"Sign out of other sessions" ends the others and keeps this one', async () => {
    // Two sessions of the buyer, each in a client that holds its session as the app's does.
    const [mine, other] = [anonClient(target), anonClient(target)];
    for (const client of [mine, other]) {
      const { error } = await client.auth.signInWithPassword({ email: 'buyer@demo.test', password: 'demo-password' });
      expect(error).toBeNull();
    }
    const request = new Request('http://localhost/profile?tab=security', post({ intent: 'sessions' }));
    const context = routeContext(target, DEMO_VIEWERS.buyer, mine);
    const url = new URL(request.url);
    const done = (await profile.action({ request, context, url, params: {}, pattern: 'profile' } as never)) as Response;
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/profile?tab=security');
    expect((await other.auth.refreshSession()).error).not.toBeNull();
    expect((await mine.auth.refreshSession()).error).toBeNull();
  });

  it('refuses to delete the last administrator', async () => {
    const answer = await failed(
      await profile.action(args('admin', '/profile?tab=data', post({ intent: 'delete', confirmUsername: 'admin' }))),
    );
    expect(answer.status).toBe(409);
    expect(answer.data.message).toBe(ACCOUNT_MESSAGES.lastAdmin);
  });

  it('deletes a seller: username typed, agents unpublished, sold ones and their sales kept', async () => {
    const sellerId = DEMO_VIEWERS.seller.id;
    const page = await profile.loader(args('seller', '/profile?tab=data'));
    expect((page as { publishedAgents: string[] }).publishedAgents.length).toBeGreaterThan(0);

    const wrong = await failed(
      await profile.action(args('seller', '/profile?tab=data', post({ intent: 'delete', confirmUsername: 'someone' }))),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.data.error?.confirmUsername?.[0]).toBe(ACCOUNT_MESSAGES.confirmUsername);

    const sales = (await service.from('purchases').select('id, agent_id').eq('seller_id', sellerId)).data!;
    expect(sales.length).toBeGreaterThan(0);

    // Files under <seller>/<agent>/: a sold agent's stay, an unsold agent's and a never-sent form's go.
    const soldId = sales[0]!.agent_id as string;
    const unsold = await service
      .from('agents')
      .insert({ seller_id: sellerId, name: 'Never sold', category: 'Sales', status: 'draft' })
      .select('id')
      .single();
    expect(unsold.error).toBeNull();
    const unsoldId = unsold.data!.id as string;
    const files = {
      'agent-images': {
        kept: [`${sellerId}/${soldId}/thumb.png`, `${sellerId}/${soldId}/gallery.png`],
        gone: [`${sellerId}/${unsoldId}/thumb.png`, `${sellerId}/${crypto.randomUUID()}/abandoned.png`],
      },
      'agent-packages': {
        kept: [`${sellerId}/${soldId}/1.0.0/sold.json`],
        gone: [`${sellerId}/${unsoldId}/1.0.0/unsold.json`],
      },
    };
    for (const [bucket, { kept, gone }] of Object.entries(files)) {
      for (const path of [...kept, ...gone]) {
        // An image must be one by its bytes (a PNG signature), a package a JSON document.
        const [bytes, type] =
          bucket === 'agent-images'
            ? [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image/png']
            : ['{}', 'application/json'];
        const { error } = await service.storage.from(bucket).upload(path, new Blob([bytes], { type }));
        expect(error, path).toBeNull();
      }
    }
    const done = (await profile.action(
      args('seller', '/profile?tab=data', post({ intent: 'delete', confirmUsername: 'seller' })),
    )) as Response;
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/');

    expect((await service.from('users').select('id').eq('id', sellerId)).data).toEqual([]);
    const kept = await service
      .from('purchases')
      .select('id, seller_id')
      .in(
        'id',
        sales.map((sale: { id: string }) => sale.id),
      );
    expect(kept.data).toHaveLength(sales.length);
    const soldIds = [...new Set(sales.map((sale: { agent_id: string }) => sale.agent_id))];
    const agents = await service.from('agents').select('id, status, seller_id').in('id', soldIds);
    expect(agents.data).toHaveLength(soldIds.length);
    for (const agent of agents.data as { status: string; seller_id: string | null }[]) {
      expect(agent.seller_id).toBeNull();
      expect(agent.status).not.toBe('published');
    }
    expect((await service.from('agents').select('id').eq('id', unsoldId)).data).toEqual([]);
    for (const [bucket, { kept, gone }] of Object.entries(files)) {
      for (const path of kept) expect((await service.storage.from(bucket).download(path)).error, path).toBeNull();
      for (const path of gone) expect((await service.storage.from(bucket).download(path)).error, path).not.toBeNull();
    }

    const signIn = await anonClient(target).auth.signInWithPassword({
      email: 'seller@demo.test',
      password: 'demo-password',
    });
    expect(signIn.error).not.toBeNull();
  });
});

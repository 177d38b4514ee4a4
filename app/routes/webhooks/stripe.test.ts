/**
 * `POST /webhooks/stripe` against the embedded backend, without network: the recorded events of
 * tests/fixtures/stripe, signed with the SDK's own test helper, posted to the real route with
 * STRIPE_* set for this file. Each event moves our records exactly once (each is sent twice); a
 * forged or tampered signature is refused with 400 and changes nothing; other methods are 405;
 * without Stripe configured the endpoint does not exist (404).
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../../tests/support/contract-target';
import { routeContext } from '../../../tests/support/route-context';
import { signedStripeRequest, stripeFixture, type StripeFixtureName } from '../../../tests/support/stripe';
import { newSubscriber, renewalChargesOf } from '../../../tests/support/subscribers';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { env } from '~/server/env.server';
import { action, loader } from './stripe';

const SECRET = 'whsec_fixtureSigningSecret';
const STRIPE_ENV = { STRIPE_SECRET_KEY: 'sk_test_fixture', STRIPE_WEBHOOK_SECRET: SECRET };
const HANA = '00000000-0000-4000-8000-000000000026';

function configureStripe(on: boolean) {
  Object.assign(env, on ? STRIPE_ENV : { STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined });
}

describe.skipIf(isHostedTarget)('POST /webhooks/stripe', () => {
  let target: ContractTarget;
  let service: SupabaseClient;
  const saved = { STRIPE_SECRET_KEY: env.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: env.STRIPE_WEBHOOK_SECRET };

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    configureStripe(true);
  });
  afterAll(async () => {
    Object.assign(env, saved);
    await target?.close();
  });

  const args = (request: Request) =>
    ({
      request,
      context: routeContext(target, null, anonClient(target)),
      params: {},
      url: new URL(request.url),
      pattern: 'webhooks/stripe',
    }) as never;

  /** The route's answer to `request`: status and JSON body. */
  async function post(request: Request): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = (await action(args(request))) as Response;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const deliver = (name: StripeFixtureName, secret = SECRET) =>
    post(signedStripeRequest(JSON.stringify(stripeFixture(name)), secret));

  /** A purchase of HANA's of a published agent she does not hold, with Stripe's payment id. */
  async function stripePurchase(paymentIntentId: string, status: 'pending' | 'completed') {
    const owned = (await service.from('purchases').select('agent_id').eq('buyer_id', HANA)).data!.map(
      (row) => row.agent_id as string,
    );
    const agents = await service
      .from('agents')
      .select('id, price, seller_id')
      .eq('status', 'published')
      .neq('seller_id', HANA)
      .order('id');
    const agent = agents.data!.find((row) => !owned.includes(row.id))!;
    const inserted = await service
      .from('purchases')
      .insert({
        buyer_id: HANA,
        agent_id: agent.id,
        list_price: agent.price,
        amount: agent.price,
        status,
        payment_provider: 'stripe',
        payment_intent_id: paymentIntentId,
        idempotency_key: randomUUID(),
      })
      .select('id')
      .single();
    if (inserted.error) throw inserted.error;
    return inserted.data.id as string;
  }

  async function purchase(id: string) {
    const { data, error } = await service
      .from('purchases')
      .select('status, status_reason, updated_at')
      .eq('id', id)
      .single();
    if (error) throw error;
    return data;
  }

  async function eventsOf(purchaseId: string) {
    const { data, error } = await service.from('payment_events').select('id, type').eq('purchase_id', purchaseId);
    if (error) throw error;
    return data;
  }

  it.each([
    ['payment_intent.succeeded', 'pi_3QfixtureSucceeded01', 'pending', 'completed', null],
    [
      'payment_intent.payment_failed',
      'pi_3QfixtureFailed0001',
      'pending',
      'failed',
      'Your card has insufficient funds.',
    ],
    ['charge.refunded', 'pi_3QfixtureRefunded01', 'completed', 'refunded', null],
  ] as const)('%s moves the purchase once, however often it arrives', async (name, intent, from, to, reason) => {
    const id = await stripePurchase(intent, from);
    expect(await deliver(name)).toEqual({ status: 200, body: { received: true, result: 'applied' } });
    const after = await purchase(id);
    expect(after).toMatchObject({ status: to, status_reason: reason });

    expect(await deliver(name)).toEqual({ status: 200, body: { received: true, result: 'ignored' } });
    expect(await purchase(id)).toEqual(after);
    expect(await eventsOf(id)).toEqual([{ id: stripeFixture(name).id, type: to }]);
  });

  /** A Premium member whose subscription (Nov 2026) is Stripe's `providerId`, as Stripe Billing made it. */
  async function stripeSubscriber(providerId: string) {
    const { userId } = await newSubscriber(target, 'premium', new Date('2026-11-01T00:00:00Z'));
    const moved = await service
      .from('subscriptions')
      .update({ provider: 'stripe', provider_subscription_id: providerId })
      .eq('user_id', userId)
      .select('id');
    if (moved.error) throw moved.error;
    return userId;
  }

  async function subscriptionOf(userId: string) {
    const { data, error } = await service
      .from('subscriptions')
      .select('tier, status, current_period_start, current_period_end, updated_at')
      .eq('user_id', userId)
      .order('created_at', { ascending: false })
      .limit(1)
      .single();
    if (error) throw error;
    return { ...data, current_period_end: new Date(data.current_period_end!).toISOString() };
  }

  it.each([
    ['invoice.paid', 'sub_1QfixtureRenewed01', { status: 'active', current_period_end: '2027-01-01T00:00:00.000Z' }],
    ['invoice.payment_failed', 'sub_1QfixturePastDue01', { status: 'past_due' }],
    ['customer.subscription.deleted', 'sub_1QfixtureCanceled1', { status: 'canceled' }],
  ] as const)('%s moves the membership once, however often it arrives', async (name, providerId, expected) => {
    const userId = await stripeSubscriber(providerId);
    expect(await deliver(name)).toEqual({ status: 200, body: { received: true, result: 'applied' } });
    const after = await subscriptionOf(userId);
    expect(after).toMatchObject(expected);
    const charges = await renewalChargesOf(service as unknown as AppSupabaseClient, userId);

    expect(await deliver(name)).toEqual({ status: 200, body: { received: true, result: 'duplicate' } });
    expect(await subscriptionOf(userId)).toEqual(after);
    expect(await renewalChargesOf(service as unknown as AppSupabaseClient, userId)).toEqual(charges);
    const renewal = { tier: 'premium', amount: 19, idempotency_key: `event:${stripeFixture(name).id}` };
    if (name === 'invoice.paid') {
      expect(charges).toEqual([
        expect.objectContaining({ ...renewal, status: 'paid', period_end: '2027-01-01T00:00:00.000Z' }),
      ]);
    } else if (name === 'invoice.payment_failed') {
      expect(charges).toEqual([
        expect.objectContaining({ ...renewal, status: 'failed', status_reason: 'The renewal payment was declined.' }),
      ]);
    } else {
      expect(charges).toEqual([]);
    }
  });

  it('refuses a forged or tampered signature with 400 and changes nothing', async () => {
    const id = await stripePurchase('pi_3QfixtureForged00001', 'pending');
    const forged = { ...stripeFixture('payment_intent.succeeded'), id: 'evt_forged' };
    forged.data = { object: { ...forged.data.object, id: 'pi_3QfixtureForged00001' } } as never;
    const payload = JSON.stringify(forged);

    expect(await post(signedStripeRequest(payload, 'whsec_someoneElsesSecret'))).toEqual({
      status: 400,
      body: { error: 'Invalid signature' },
    });
    // A genuine signature over other bytes.
    const genuine = signedStripeRequest(JSON.stringify(stripeFixture('payment_intent.succeeded')), SECRET);
    const tampered = new Request(genuine.url, { method: 'POST', headers: genuine.headers, body: payload });
    expect((await post(tampered)).status).toBe(400);
    // No signature at all.
    const unsigned = new Request(genuine.url, { method: 'POST', body: payload });
    expect((await post(unsigned)).status).toBe(400);

    expect(await purchase(id)).toMatchObject({ status: 'pending' });
    expect(await eventsOf(id)).toEqual([]);
    const seen = await service.from('payment_events').select('id').eq('id', 'evt_forged');
    expect(seen.data).toEqual([]);
  });

  it('acknowledges an event it does not act on', async () => {
    const other = { ...stripeFixture('payment_intent.succeeded'), id: 'evt_other', type: 'customer.created' };
    expect(await post(signedStripeRequest(JSON.stringify(other), SECRET))).toEqual({
      status: 200,
      body: { received: true, result: 'ignored' },
    });
  });

  it('answers 405 to any other method', async () => {
    const get = (await loader()) as Response;
    expect(get.status).toBe(405);
    expect(get.headers.get('Allow')).toBe('POST');
    const put = signedStripeRequest(JSON.stringify(stripeFixture('payment_intent.succeeded')), SECRET, {
      method: 'PUT',
    });
    expect((await post(put)).status).toBe(405);
  });

  it('does not exist without Stripe configured (404)', async () => {
    configureStripe(false);
    try {
      expect(((await loader()) as Response).status).toBe(404);
      expect((await deliver('payment_intent.succeeded')).status).toBe(404);
    } finally {
      configureStripe(true);
    }
  });
});

/**
 * The Stripe provider's requests, without network: the SDK runs for real over a fetch that
 * answers with recorded Stripe responses and records what was asked (path, parameters,
 * Idempotency-Key). Checks what reaches Stripe — customer and saved card, off-session confirmation,
 * idempotency keys, Billing's proration and cancel-at-period-end — and how declines come back.
 */
import Stripe from 'stripe';
import { beforeEach, describe, expect, it } from 'vitest';
import { createStripeProvider } from './stripe-provider.server';

const USER = '00000000-0000-4000-8000-000000000026';
const OTHER_USER = '00000000-0000-4000-8000-000000000028';
const START = 1796083200; // 2026-12-01
const END = 1798761600; // 2027-01-01

interface Seen {
  method: string;
  path: string;
  params: URLSearchParams;
  idempotencyKey: string | null;
}

type Answer = { status?: number; body: unknown };

/** Stripe as recorded: answers per "METHOD /path" (the first match), every request kept. */
function recordedStripe(answers: Record<string, Answer | ((seen: Seen) => Answer)>, secretKey = 'sk_test_fixture') {
  const seen: Seen[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    const params = new URLSearchParams(method === 'GET' ? url.search : String(init?.body ?? ''));
    const request = { method, path: url.pathname, params, idempotencyKey: headers.get('idempotency-key') };
    seen.push(request);
    const match = answers[`${method} ${url.pathname}`];
    if (!match)
      return Response.json({ error: { type: 'invalid_request_error', message: 'no recording' } }, { status: 404 });
    const answer = typeof match === 'function' ? match(request) : match;
    return Response.json(answer.body, { status: answer.status ?? 200, headers: { 'request-id': 'req_fixture' } });
  }) as typeof fetch;
  const provider = createStripeProvider({
    secretKey,
    webhookSecret: 'whsec_fixture',
    prices: { premium: 'price_1QfixturePremium' },
    httpClient: Stripe.createFetchHttpClient(fetchFn),
  });
  return { provider, seen, posted: (path: string) => seen.filter((r) => r.method === 'POST' && r.path === path) };
}

const CUSTOMER_FOUND = {
  'GET /v1/customers/search': { body: { object: 'search_result', data: [{ id: 'cus_1', object: 'customer' }] } },
  'GET /v1/customers/cus_1': {
    body: { id: 'cus_1', object: 'customer', invoice_settings: { default_payment_method: 'pm_1' } },
  },
};

const subscriptionBody = (price: string) => ({
  id: 'sub_1',
  object: 'subscription',
  status: 'active',
  items: {
    object: 'list',
    data: [
      {
        id: 'si_1',
        object: 'subscription_item',
        current_period_start: START,
        current_period_end: END,
        price: { id: price },
      },
    ],
  },
  latest_invoice: { id: 'in_1', object: 'invoice', status: 'paid' },
});

describe('Stripe provider', () => {
  let recorded: ReturnType<typeof recordedStripe>;

  describe('purchases', () => {
    beforeEach(() => {
      recorded = recordedStripe({
        'GET /v1/customers/search': { body: { object: 'search_result', data: [] } },
        'POST /v1/customers': { body: { id: 'cus_1', object: 'customer' } },
        'GET /v1/customers/cus_1': CUSTOMER_FOUND['GET /v1/customers/cus_1'],
        'POST /v1/payment_intents': (request) =>
          request.params.get('amount') === '999'
            ? {
                status: 402,
                body: {
                  error: {
                    type: 'card_error',
                    code: 'card_declined',
                    decline_code: 'generic_decline',
                    message: 'Your card was declined.',
                    payment_intent: { id: 'pi_declined', object: 'payment_intent', status: 'requires_payment_method' },
                  },
                },
              }
            : { body: { id: 'pi_1', object: 'payment_intent', status: 'succeeded' } },
      });
    });

    it('charges the buyer’s saved card off-session with the form’s idempotency key, scoped to the buyer', async () => {
      const input = { purchaseId: 'p1', buyerId: USER, currency: 'usd' as const, description: 'Agent' };
      const paid = await recorded.provider.createPayment({ ...input, amountCents: 1341, idempotencyKey: 'key-1' });
      expect(paid).toEqual({
        paymentIntentId: 'pi_1',
        settled: { eventId: 'sync_pi_1_succeeded', paymentIntentId: 'pi_1', outcome: 'completed' },
      });
      const [customer] = recorded.posted('/v1/customers');
      expect(customer!.params.get('metadata[user_id]')).toBe(USER);
      expect(customer!.idempotencyKey).toBe(`customer:${USER}`);
      const [intent] = recorded.posted('/v1/payment_intents');
      expect(Object.fromEntries(intent!.params)).toMatchObject({
        amount: '1341',
        currency: 'usd',
        customer: 'cus_1',
        payment_method: 'pm_1',
        confirm: 'true',
        off_session: 'true',
        'metadata[purchase_id]': 'p1',
      });
      expect(intent!.idempotencyKey).toBe(`purchase:${USER}:key-1`);

      // A decline is a failed payment with Stripe's words, not an error; the customer is remembered.
      const declined = await recorded.provider.createPayment({ ...input, amountCents: 999, idempotencyKey: 'key-2' });
      expect(declined).toEqual({
        paymentIntentId: 'pi_declined',
        settled: {
          eventId: 'sync_pi_declined_failed',
          paymentIntentId: 'pi_declined',
          outcome: 'failed',
          reason: 'Your card was declined.',
        },
      });
      expect(recorded.seen.filter((r) => r.path === '/v1/customers/search')).toHaveLength(1);
    });

    it('gives two buyers who send the same form key two different Stripe keys', async () => {
      // Stripe keeps keys per account: the same key from another buyer would replay the first
      // buyer's PaymentIntent (or be refused as reused with other parameters).
      const input = { currency: 'usd' as const, description: 'Agent', amountCents: 1341, idempotencyKey: 'same-key' };
      await recorded.provider.createPayment({ ...input, purchaseId: 'p1', buyerId: USER });
      await recorded.provider.createPayment({ ...input, purchaseId: 'p2', buyerId: OTHER_USER });
      const keys = recorded.posted('/v1/payment_intents').map((request) => request.idempotencyKey);
      expect(keys).toEqual([`purchase:${USER}:same-key`, `purchase:${OTHER_USER}:same-key`]);
      expect(new Set(keys).size).toBe(2);
    });

    it('fails without a saved card, and charges nothing for a free agent', async () => {
      recorded = recordedStripe({
        ...CUSTOMER_FOUND,
        'GET /v1/customers/cus_1': { body: { id: 'cus_1', object: 'customer', invoice_settings: {} } },
        'GET /v1/payment_methods': { body: { object: 'list', data: [] } },
      });
      const input = { buyerId: USER, currency: 'usd' as const, description: 'Agent', idempotencyKey: 'k' };
      const none = await recorded.provider.createPayment({ ...input, purchaseId: 'p2', amountCents: 500 });
      expect(none.settled).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('add a card') });
      const free = await recorded.provider.createPayment({ ...input, purchaseId: 'p3', amountCents: 0 });
      expect(free.settled).toMatchObject({ outcome: 'completed' });
      expect(recorded.posted('/v1/payment_intents')).toEqual([]);
    });
  });

  it('refunds a purchase’s amount of its payment, once per purchase', async () => {
    recorded = recordedStripe({ 'POST /v1/refunds': { body: { id: 're_1', object: 'refund', status: 'succeeded' } } });
    const refunded = await recorded.provider.refund({
      paymentIntentId: 'pi_1',
      purchaseId: 'p-1',
      amountCents: 1341,
      reason: 'Broken',
    });
    expect(refunded.settled).toEqual({
      eventId: 'sync_re_1',
      paymentIntentId: 'pi_1',
      outcome: 'refunded',
      reason: 'Broken',
    });
    const [refund] = recorded.posted('/v1/refunds');
    expect(refund!.params.get('payment_intent')).toBe('pi_1');
    expect(refund!.params.get('amount')).toBe('1341');
    expect(refund!.params.get('metadata[purchase_id]')).toBe('p-1');
    expect(refund!.idempotencyKey).toBe('refund:p-1');

    recorded = recordedStripe({ 'POST /v1/refunds': { body: { id: 're_2', object: 'refund', status: 'pending' } } });
    expect(
      await recorded.provider.refund({ paymentIntentId: 'pi_2', purchaseId: 'p-2', amountCents: 100, reason: 'x' }),
    ).toEqual({
      settled: null,
    });
  });

  describe('subscriptions through Stripe Billing', () => {
    beforeEach(() => {
      recorded = recordedStripe({
        ...CUSTOMER_FOUND,
        'GET /v1/prices': (request) => ({
          body: {
            object: 'list',
            data:
              request.params.get('lookup_keys[0]') === 'enterprise_monthly' ? [{ id: 'price_E', object: 'price' }] : [],
          },
        }),
        'POST /v1/subscriptions': { body: subscriptionBody('price_1QfixturePremium') },
        'GET /v1/subscriptions/sub_1': { body: subscriptionBody('price_1QfixturePremium') },
        'POST /v1/subscriptions/sub_1': { body: subscriptionBody('price_E') },
      });
    });

    it('subscribes with the configured Price, charging the first month or failing outright', async () => {
      const created = await recorded.provider.createSubscription({
        userId: USER,
        tier: 'premium',
        amountCents: 1900,
        currency: 'usd',
        description: 'Premium membership - monthly',
        idempotencyKey: 'sub-key',
        now: new Date(),
      });
      expect(created).toEqual({
        subscriptionId: 'sub_1',
        customerId: 'cus_1',
        periodStart: new Date(START * 1000),
        periodEnd: new Date(END * 1000),
        charge: { paymentId: 'in_1', outcome: 'paid' },
      });
      const [request] = recorded.posted('/v1/subscriptions');
      expect(Object.fromEntries(request!.params)).toMatchObject({
        customer: 'cus_1',
        'items[0][price]': 'price_1QfixturePremium',
        default_payment_method: 'pm_1',
        off_session: 'true',
        payment_behavior: 'error_if_incomplete',
      });
      expect(request!.idempotencyKey).toBe(`subscription:${USER}:sub-key`);
    });

    it('upgrades with proration invoiced now, downgrades from the next period, cancels at period end', async () => {
      const change = { subscriptionId: 'sub_1', tier: 'enterprise' as const, description: 'd', prorationCents: 2613 };
      expect(await recorded.provider.changeSubscription({ ...change, effective: 'now', idempotencyKey: 'up' })).toEqual(
        {
          charge: { paymentId: 'in_1', outcome: 'paid' },
        },
      );
      // The enterprise Price found by its lookup key.
      expect(recorded.seen.find((r) => r.path === '/v1/prices')!.params.get('lookup_keys[0]')).toBe(
        'enterprise_monthly',
      );
      const [upgrade] = recorded.posted('/v1/subscriptions/sub_1');
      expect(Object.fromEntries(upgrade!.params)).toMatchObject({
        'items[0][id]': 'si_1',
        'items[0][price]': 'price_E',
        proration_behavior: 'always_invoice',
        payment_behavior: 'error_if_incomplete',
      });
      expect(upgrade!.idempotencyKey).toBe('change:sub_1:up');

      await recorded.provider.changeSubscription({ ...change, effective: 'period_end', idempotencyKey: 'down' });
      const downgrade = recorded.posted('/v1/subscriptions/sub_1')[1]!;
      expect(downgrade.params.get('proration_behavior')).toBe('none');
      expect(downgrade.idempotencyKey).toBe('change:sub_1:down');

      await recorded.provider.setCancelAtPeriodEnd({ subscriptionId: 'sub_1', cancel: true });
      expect(recorded.posted('/v1/subscriptions/sub_1')[2]!.params.get('cancel_at_period_end')).toBe('true');
    });
  });

  describe('saved cards', () => {
    const card = { number: '4242 4242 4242 4242', expMonth: 8, expYear: 2031, cvc: '123' };
    const visa = {
      id: 'pm_saved',
      object: 'payment_method',
      card: { brand: 'visa', last4: '4242', exp_month: 8, exp_year: 2031 },
    };

    it('in test mode, saves a test number as Stripe’s test PaymentMethod; the number never leaves', async () => {
      recorded = recordedStripe({
        ...CUSTOMER_FOUND,
        'POST /v1/payment_methods/pm_card_visa/attach': { body: { ...visa, card: { ...visa.card, exp_year: 2034 } } },
        'POST /v1/payment_methods/pm_saved': { body: visa },
        'POST /v1/payment_methods/pm_saved/detach': { body: visa },
      });
      expect(await recorded.provider.savePaymentMethod({ userId: USER, card })).toEqual({
        ok: true,
        method: { id: 'pm_saved', brand: 'Visa', last4: '4242', expMonth: 8, expYear: 2031 },
      });
      expect(recorded.posted('/v1/payment_methods/pm_card_visa/attach')[0]!.params.get('customer')).toBe('cus_1');
      expect(Object.fromEntries(recorded.posted('/v1/payment_methods/pm_saved')[0]!.params)).toEqual({
        'card[exp_month]': '8',
        'card[exp_year]': '2031',
      });
      expect(recorded.seen.some((r) => [...r.params.values()].some((v) => v.includes('4242424242424242')))).toBe(false);

      await recorded.provider.updatePaymentMethodExpiry({ methodId: 'pm_saved', expMonth: 1, expYear: 2032 });
      expect(recorded.posted('/v1/payment_methods/pm_saved')[1]!.params.get('card[exp_year]')).toBe('2032');
      await recorded.provider.detachPaymentMethod({ methodId: 'pm_saved' });
      expect(recorded.posted('/v1/payment_methods/pm_saved/detach')).toHaveLength(1);

      const other = await recorded.provider.savePaymentMethod({
        userId: USER,
        card: { ...card, number: '4111111111111111' },
      });
      expect(other).toMatchObject({ ok: false, reason: expect.stringContaining('test cards') });
    });

    it('in live mode, takes no card number (cards are added on Stripe’s page)', async () => {
      recorded = recordedStripe({}, 'sk_live_fixture');
      expect(recorded.provider.testMode).toBe(false);
      expect(await recorded.provider.savePaymentMethod({ userId: USER, card })).toMatchObject({ ok: false });
      expect(recorded.seen).toEqual([]);
    });

    it('charges the card the member chose, and leaves renewals to Stripe Billing', async () => {
      recorded = recordedStripe({
        ...CUSTOMER_FOUND,
        'POST /v1/payment_intents': { body: { id: 'pi_1', object: 'payment_intent', status: 'processing' } },
      });
      const paid = await recorded.provider.createPayment({
        purchaseId: 'p',
        buyerId: USER,
        amountCents: 500,
        currency: 'usd',
        description: 'Agent',
        idempotencyKey: 'k',
        paymentMethodId: 'pm_chosen',
      });
      expect(paid).toEqual({ paymentIntentId: 'pi_1', settled: null });
      expect(recorded.posted('/v1/payment_intents')[0]!.params.get('payment_method')).toBe('pm_chosen');
      expect(recorded.seen.some((r) => r.path === '/v1/customers/cus_1')).toBe(false);
      const renewal = await recorded.provider.renewSubscription({
        subscriptionId: 'sub_1',
        tier: 'premium',
        amountCents: 1900,
        currency: 'usd',
        description: 'd',
        periodStart: new Date(),
        idempotencyKey: 'r',
        now: new Date(),
      });
      expect(renewal).toBeNull();
    });
  });
});

/**
 * The purchase service against the embedded backend (real supabase-js clients, real database
 * rules): discounts by tier, replays, provider notifications applied once, refunds by the
 * seller or an admin only, and a provider that fails leaves a failed purchase, never a charge
 * without a record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { testPaymentProvider } from '~/server/payments/test-provider.server';
import type { PaymentNotification, PaymentProvider } from '~/server/payments/provider.server';
import {
  applyPaymentNotification,
  buyAgent,
  discountPercentFor,
  priceAfterDiscount,
  refundPurchase,
} from '~/server/purchases.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const agentId = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const SELLER = '00000000-0000-4000-8000-000000000002'; // demo_seller: agents 1, 7, 13, …
const OTHER_SELLER = '00000000-0000-4000-8000-000000000011';
const HANA = '00000000-0000-4000-8000-000000000026'; // Basic: $781 spent
const EMMA = '00000000-0000-4000-8000-000000000028'; // Enterprise: $2,067 spent

describe('price after discount', () => {
  it('rounds the discount to the cent and keeps list = discount + amount', () => {
    expect(priceAfterDiscount(149, 10)).toEqual({ listCents: 14900, discountCents: 1490, amountCents: 13410 });
    expect(priceAfterDiscount(99.99, 20)).toEqual({ listCents: 9999, discountCents: 2000, amountCents: 7999 });
    expect(priceAfterDiscount(0, 20)).toEqual({ listCents: 0, discountCents: 0, amountCents: 0 });
  });
});

describe.skipIf(isHostedTarget)('purchase service', () => {
  let target: ContractTarget;
  let service: AppSupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target) as unknown as AppSupabaseClient;
  });
  afterAll(() => target?.close());

  async function purchaseOf(buyerId: string, agent: string) {
    const { data, error } = await service
      .from('purchases')
      .select('*')
      .eq('buyer_id', buyerId)
      .eq('agent_id', agent)
      .order('created_at', { ascending: false });
    if (error) throw error;
    return data;
  }

  /** The first agent of `sellerId` on sale that `buyerId` holds no purchase of. */
  async function unownedAgent(buyerId: string, sellerId: string): Promise<{ id: string; price: number }> {
    const owned = (await service.from('purchases').select('agent_id').eq('buyer_id', buyerId)).data!.map(
      (row) => row.agent_id,
    );
    const { data } = await service
      .from('agents')
      .select('id, price')
      .eq('seller_id', sellerId)
      .eq('status', 'published')
      .not('id', 'in', `(${owned.join(',')})`)
      .limit(1)
      .single();
    return { id: data!.id, price: Number(data!.price) };
  }

  it('charges the tier price and records it; the same form again is the same purchase', async () => {
    expect(await discountPercentFor(service, EMMA)).toBe(20);
    expect(await discountPercentFor(service, HANA)).toBe(0);
    const agent = await unownedAgent(EMMA, SELLER);
    const key = crypto.randomUUID();
    const shownPriceCents = priceAfterDiscount(agent.price, 20).amountCents;
    const first = await buyAgent(service, testPaymentProvider, {
      buyerId: EMMA,
      agentId: agent.id,
      idempotencyKey: key,
      shownPriceCents,
    });
    const expected = priceAfterDiscount(agent.price, 20).amountCents / 100;
    expect(first).toMatchObject({ ok: true, amount: expected, discountPercent: 20, replayed: false });
    const again = await buyAgent(service, testPaymentProvider, {
      buyerId: EMMA,
      agentId: agent.id,
      idempotencyKey: key,
      shownPriceCents,
    });
    expect(again).toMatchObject({ ok: true, replayed: true });
    const other = await buyAgent(service, testPaymentProvider, {
      buyerId: EMMA,
      agentId: agent.id,
      idempotencyKey: crypto.randomUUID(),
      shownPriceCents,
    });
    expect(other).toEqual({ ok: false, refusal: 'owned' });

    const rows = await purchaseOf(EMMA, agent.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'completed', payment_provider: 'test', discount_percent: 20 });
    expect(rows[0]!.payment_intent_id).toMatch(/^pi_test_[0-9a-f]{24}$/);
    expect(Number(rows[0]!.list_price)).toBe(agent.price);
    expect(Number(rows[0]!.amount) + Number(rows[0]!.discount_amount)).toBeCloseTo(agent.price, 2);
  });

  it('refuses own agents and agents not on sale', async () => {
    const key = crypto.randomUUID();
    expect(
      await buyAgent(service, testPaymentProvider, {
        buyerId: SELLER,
        agentId: agentId(1),
        idempotencyKey: key,
        shownPriceCents: 0,
      }),
    ).toEqual({
      ok: false,
      refusal: 'own',
    });
    expect(
      await buyAgent(service, testPaymentProvider, {
        buyerId: HANA,
        agentId: agentId(73),
        idempotencyKey: key,
        shownPriceCents: 0,
      }),
    ).toEqual({
      ok: false,
      refusal: 'not-on-sale',
    });
  });

  it('applies a provider notification once, and refunds only for the seller or an admin', async () => {
    const agent = await unownedAgent(HANA, SELLER);
    const bought = await buyAgent(service, testPaymentProvider, {
      buyerId: HANA,
      agentId: agent.id,
      idempotencyKey: crypto.randomUUID(),
      shownPriceCents: priceAfterDiscount(agent.price, 0).amountCents,
    });
    expect(bought.ok).toBe(true);
    const purchaseId = bought.ok ? bought.purchaseId : '';
    const [purchase] = await purchaseOf(HANA, agent.id);
    // The completion notification delivered again changes nothing.
    const { data: event } = await service.from('payment_events').select('id').eq('purchase_id', purchaseId).single();
    const redelivered = await applyPaymentNotification(service, testPaymentProvider, {
      eventId: event!.id,
      paymentIntentId: purchase!.payment_intent_id!,
      outcome: 'refunded',
    });
    expect(redelivered).toBe('ignored');
    expect((await purchaseOf(HANA, agent.id))[0]!.status).toBe('completed');

    const refund = (actor: { id: string; isAdmin: boolean }) =>
      refundPurchase(service, testPaymentProvider, { actor, purchaseId, reason: 'Bought by mistake' });
    expect(await refund({ id: OTHER_SELLER, isAdmin: false })).toEqual({ ok: false, refusal: 'forbidden' });
    expect(await refund({ id: HANA, isAdmin: false })).toEqual({ ok: false, refusal: 'forbidden' });
    expect(await refund({ id: SELLER, isAdmin: false })).toEqual({ ok: true });
    expect(await refund({ id: SELLER, isAdmin: false })).toEqual({ ok: false, refusal: 'not-completed' });
    expect((await purchaseOf(HANA, agent.id))[0]).toMatchObject({
      status: 'refunded',
      status_reason: 'Bought by mistake',
      refunded_by: SELLER,
    });
    // Refunded: the agent can be bought again.
    const rebuy = await buyAgent(service, testPaymentProvider, {
      buyerId: HANA,
      agentId: agent.id,
      idempotencyKey: crypto.randomUUID(),
      shownPriceCents: priceAfterDiscount(agent.price, 0).amountCents,
    });
    expect(rebuy.ok).toBe(true);
  });

  it('the same confirmation while its charge is under way waits for it: one charge, the same answer', async () => {
    /** A provider whose charges wait for `release` (a slow card network), then answer `settle`. */
    function slowProvider(settle: (paymentIntentId: string) => PaymentNotification) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const provider: PaymentProvider = {
        ...testPaymentProvider,
        async createPayment() {
          charges.push(1);
          await released;
          const paymentIntentId = `pi_slow_${crypto.randomUUID()}`;
          return { paymentIntentId, settled: settle(paymentIntentId) };
        },
      };
      const charges: number[] = [];
      return { provider, release, charges };
    }
    async function confirmTwice(slow: ReturnType<typeof slowProvider>, agent: { id: string; price: number }) {
      const input = {
        buyerId: HANA,
        agentId: agent.id,
        idempotencyKey: crypto.randomUUID(),
        shownPriceCents: priceAfterDiscount(agent.price, 0).amountCents,
      };
      const first = buyAgent(service, slow.provider, input);
      await expect.poll(() => slow.charges.length).toBe(1);
      let secondAnswered = false;
      const second = buyAgent(service, slow.provider, input).finally(() => (secondAnswered = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondAnswered).toBe(false); // waiting for the first's charge, not answering "still processing"
      slow.release();
      const answers = await Promise.all([first, second]);
      expect(slow.charges).toHaveLength(1);
      expect(await purchaseOf(HANA, agent.id)).toHaveLength(1);
      return answers;
    }

    const paid = slowProvider((paymentIntentId) => ({
      eventId: `evt_${paymentIntentId}`,
      paymentIntentId,
      outcome: 'completed',
    }));
    const [first, second] = await confirmTwice(paid, await unownedAgent(HANA, SELLER));
    expect(first).toMatchObject({ ok: true, replayed: false });
    expect(second).toEqual({ ...first, replayed: true });

    const declined = slowProvider((paymentIntentId) => ({
      eventId: `evt_${paymentIntentId}`,
      paymentIntentId,
      outcome: 'failed',
      reason: 'Your card was declined.',
    }));
    expect(await confirmTwice(declined, await unownedAgent(HANA, SELLER))).toEqual([
      { ok: false, refusal: 'declined' },
      { ok: false, refusal: 'declined' },
    ]);
  });

  it('a provider that cannot start the payment leaves a failed purchase and a clear refusal', async () => {
    const broken: PaymentProvider = {
      ...testPaymentProvider,
      async createPayment() {
        throw new Error('provider unreachable');
      },
    };
    const agent = await unownedAgent(HANA, OTHER_SELLER);
    const errors = console.error;
    console.error = () => {};
    try {
      expect(
        await buyAgent(service, broken, {
          buyerId: HANA,
          agentId: agent.id,
          idempotencyKey: crypto.randomUUID(),
          shownPriceCents: priceAfterDiscount(agent.price, 0).amountCents,
        }),
      ).toEqual({ ok: false, refusal: 'failed' });
    } finally {
      console.error = errors;
    }
    expect((await purchaseOf(HANA, agent.id))[0]).toMatchObject({
      status: 'failed',
      status_reason: 'The payment could not be started.',
    });
  });
});

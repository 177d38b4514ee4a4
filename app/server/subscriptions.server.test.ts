/**
 * Membership subscriptions against the embedded backend (real supabase-js clients, real database
 * rules): subscribe, the same form twice is one charge, a race subscribes once, a prorated
 * upgrade with a moved clock, a downgrade at the period's end and its withdrawal, cancel and
 * undo, a declined payment leaves nothing live, members cannot write their own plan, and the
 * checkout discount follows the subscription.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMember as createMember } from '../../tests/support/subscribers';
import { anonClient, serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { DAY_MS, monthlyCents } from '~/lib/subscriptions';
import type { PaymentProvider } from '~/server/payments/provider.server';
import { testPaymentProvider } from '~/server/payments/test-provider.server';
import { discountPercentFor } from '~/server/purchases.server';
import { confirmPlan, currentTier, liveSubscription, setCancellation } from '~/server/subscriptions.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const EMMA = '00000000-0000-4000-8000-000000000028'; // seeded Enterprise subscriber
const HANA = '00000000-0000-4000-8000-000000000026'; // seeded, no subscription
const PASSWORD = 'subscriptions-password';
const PREMIUM_MONTH = {
  kind: 'subscription',
  tier: 'premium',
  amount: 19,
  status: 'paid',
  description: 'Premium membership - monthly',
};

describe.skipIf(isHostedTarget)('subscription service', () => {
  let target: ContractTarget;
  let service: AppSupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target) as unknown as AppSupabaseClient;
  });
  afterAll(() => target?.close());

  const newMember = () => createMember(target, PASSWORD, 'sub');

  async function chargesOf(userId: string) {
    const { data, error } = await service
      .from('subscription_charges')
      .select('kind, tier, amount, status, description')
      .eq('user_id', userId)
      .order('created_at');
    if (error) throw error;
    return data.map((row) => ({ ...row, amount: Number(row.amount) }));
  }

  it('reads the seeded plans: the discount follows the subscription', async () => {
    expect(await currentTier(service, EMMA)).toBe('enterprise');
    expect(await discountPercentFor(service, EMMA)).toBe(20);
    expect(await currentTier(service, HANA)).toBe('basic');
    expect(await discountPercentFor(service, HANA)).toBe(0);
  });

  it('subscribes once per form, and records the charge', async () => {
    const member = await newMember();
    const now = new Date('2026-11-23T10:00:00Z');
    const key = crypto.randomUUID();
    const first = await confirmPlan(service, testPaymentProvider, {
      userId: member.id,
      tier: 'premium',
      idempotencyKey: key,
      shownChargeCents: monthlyCents('premium'),
      now,
    });
    expect(first).toMatchObject({
      ok: true,
      replayed: false,
      quote: { kind: 'subscribe', chargeCents: 1900 },
      subscription: {
        tier: 'premium',
        status: 'active',
        periodStart: '2026-11-23T10:00:00.000Z',
        periodEnd: '2026-12-23T10:00:00.000Z',
        cancelAtPeriodEnd: false,
      },
    });
    const again = await confirmPlan(service, testPaymentProvider, {
      userId: member.id,
      tier: 'premium',
      idempotencyKey: key,
      shownChargeCents: monthlyCents('premium'),
      now,
    });
    expect(again).toMatchObject({ ok: true, replayed: true });
    expect(
      await confirmPlan(service, testPaymentProvider, {
        userId: member.id,
        tier: 'premium',
        idempotencyKey: crypto.randomUUID(),
        shownChargeCents: monthlyCents('premium'),
        now,
      }),
    ).toEqual({ ok: false, refusal: 'current' });
    expect(await chargesOf(member.id)).toEqual([PREMIUM_MONTH]);
    expect(await discountPercentFor(service, member.id)).toBe(10);
  });

  it('subscribes once when ten different forms arrive together', async () => {
    const member = await newMember();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        confirmPlan(service, testPaymentProvider, {
          userId: member.id,
          tier: 'enterprise',
          idempotencyKey: crypto.randomUUID(),
          shownChargeCents: monthlyCents('enterprise'),
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect((await chargesOf(member.id)).filter((charge) => charge.status === 'paid')).toHaveLength(1);
    const { count } = await service
      .from('subscriptions')
      .select('id', { count: 'exact', head: true })
      .eq('user_id', member.id);
    expect(count).toBe(1);
  });

  it('upgrades with a prorated charge, downgrades at the end of the period, and withdraws that', async () => {
    const member = await newMember();
    const start = new Date('2026-11-01T12:00:00Z');
    // Each confirmed at the amount its page showed: the first month, the proration, then nothing.
    const input = (tier: 'premium' | 'enterprise', now: Date, shownChargeCents = 0) => ({
      userId: member.id,
      tier,
      idempotencyKey: crypto.randomUUID(),
      shownChargeCents,
      now,
    });
    await confirmPlan(service, testPaymentProvider, input('premium', start, 1900));
    const tenDaysIn = new Date(start.getTime() + 10 * DAY_MS); // 20 of 30 days left
    const upgraded = await confirmPlan(service, testPaymentProvider, input('enterprise', tenDaysIn, 5333));
    expect(upgraded).toMatchObject({
      ok: true,
      quote: { kind: 'upgrade', chargeCents: 5333, daysLeft: 20, periodDays: 30 },
      subscription: { tier: 'enterprise', periodEnd: '2026-12-01T12:00:00.000Z' },
    });
    expect(await currentTier(service, member.id, tenDaysIn)).toBe('enterprise');

    const downgraded = await confirmPlan(service, testPaymentProvider, input('premium', tenDaysIn));
    expect(downgraded).toMatchObject({
      ok: true,
      quote: { kind: 'downgrade' },
      subscription: { tier: 'enterprise', scheduledTier: 'premium' },
    });
    expect(await confirmPlan(service, testPaymentProvider, input('premium', tenDaysIn))).toEqual({
      ok: false,
      refusal: 'scheduled',
    });
    const kept = await confirmPlan(service, testPaymentProvider, input('enterprise', tenDaysIn));
    expect(kept).toMatchObject({
      ok: true,
      quote: { kind: 'keep' },
      subscription: { tier: 'enterprise', scheduledTier: null },
    });

    expect(await chargesOf(member.id)).toEqual([
      PREMIUM_MONTH,
      {
        kind: 'proration',
        tier: 'enterprise',
        amount: 53.33,
        status: 'paid',
        description: 'Enterprise membership - upgrade from Premium, prorated',
      },
    ]);
  });

  it('cancels at the end of the period, undoes until then, and ends the tier after it', async () => {
    const member = await newMember();
    const start = new Date();
    await confirmPlan(service, testPaymentProvider, {
      userId: member.id,
      tier: 'premium',
      idempotencyKey: crypto.randomUUID(),
      shownChargeCents: monthlyCents('premium'),
      now: start,
    });
    const cancelled = await setCancellation(service, testPaymentProvider, { userId: member.id, cancel: true });
    expect(cancelled).toMatchObject({ ok: true, subscription: { cancelAtPeriodEnd: true, tier: 'premium' } });
    expect(await setCancellation(service, testPaymentProvider, { userId: member.id, cancel: true })).toMatchObject({
      ok: true,
    });
    expect(await currentTier(service, member.id)).toBe('premium'); // until the end of the period
    expect(
      await confirmPlan(service, testPaymentProvider, {
        userId: member.id,
        tier: 'enterprise',
        idempotencyKey: crypto.randomUUID(),
        shownChargeCents: monthlyCents('enterprise'),
      }),
    ).toEqual({ ok: false, refusal: 'cancelling' });

    const resumed = await setCancellation(service, testPaymentProvider, { userId: member.id, cancel: false });
    expect(resumed).toMatchObject({ ok: true, subscription: { cancelAtPeriodEnd: false } });
    expect(await setCancellation(service, testPaymentProvider, { userId: member.id, cancel: false })).toEqual({
      ok: false,
      refusal: 'not-cancelling',
    });

    await setCancellation(service, testPaymentProvider, { userId: member.id, cancel: true });
    const afterTheEnd = new Date(Date.parse(cancelled.ok ? cancelled.subscription.periodEnd : '') + 1000);
    expect(await liveSubscription(service, member.id, afterTheEnd)).toBeNull();
    expect(await currentTier(service, member.id, afterTheEnd)).toBe('basic');
    expect(await setCancellation(service, testPaymentProvider, { userId: HANA, cancel: true })).toEqual({
      ok: false,
      refusal: 'not-subscribed',
    });
  });

  it('a declined payment leaves no plan and a failed charge', async () => {
    const member = await newMember();
    const declining: PaymentProvider = {
      ...testPaymentProvider,
      async createSubscription(input) {
        const created = await testPaymentProvider.createSubscription(input);
        return { ...created, charge: { ...created.charge, outcome: 'failed', reason: 'Your card was declined.' } };
      },
    };
    expect(
      await confirmPlan(service, declining, {
        userId: member.id,
        tier: 'premium',
        idempotencyKey: crypto.randomUUID(),
        shownChargeCents: monthlyCents('premium'),
      }),
    ).toEqual({ ok: false, refusal: 'declined' });
    expect(await currentTier(service, member.id)).toBe('basic');
    expect(await chargesOf(member.id)).toMatchObject([{ status: 'failed', amount: 19 }]);
    // And a working card afterwards subscribes.
    expect(
      await confirmPlan(service, testPaymentProvider, {
        userId: member.id,
        tier: 'premium',
        idempotencyKey: crypto.randomUUID(),
        shownChargeCents: monthlyCents('premium'),
      }),
    ).toMatchObject({ ok: true });
  });

  it('members read their own plan and cannot write it', async () => {
    const member = await newMember();
    await confirmPlan(service, testPaymentProvider, {
      userId: member.id,
      tier: 'premium',
      idempotencyKey: crypto.randomUUID(),
      shownChargeCents: monthlyCents('premium'),
    });
    const client = anonClient(target);
    expect((await client.auth.signInWithPassword({ email: member.email, password: PASSWORD })).error).toBeNull();
    const own = client as unknown as AppSupabaseClient;
    expect(await currentTier(own, member.id)).toBe('premium');
    expect(await currentTier(own, EMMA)).toBe('basic'); // another member's plan is not visible
    const update = await client.from('subscriptions').update({ tier: 'enterprise' }).eq('user_id', member.id);
    expect(update.error?.code).toBe('42501');
    const insert = await client
      .from('subscriptions')
      .insert({ user_id: member.id, tier: 'enterprise', status: 'active', provider: 'test' });
    expect(insert.error?.code).toBe('42501');
    const charge = await client.from('subscription_charges').delete().eq('user_id', member.id);
    expect(charge.error?.code).toBe('42501');
    expect((await client.from('subscription_charges').select('status').eq('user_id', member.id)).data).toEqual([
      { status: 'paid' },
    ]);
  });
});

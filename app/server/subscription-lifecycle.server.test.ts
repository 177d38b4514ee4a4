/**
 * A provider's word on a subscription, against the embedded backend: a renewal moves the period,
 * applies a scheduled downgrade and records the paid charge; a failed renewal is past_due with a
 * failed charge; a cancellation ends the tier; every event replayed twice is applied once; an
 * unknown subscription records nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { newSubscriber, renewalChargesOf } from '../../tests/support/subscribers';
import type { PaidTierId } from '~/lib/subscriptions';
import { testPaymentProvider } from '~/server/payments/test-provider.server';
import { applySubscriptionNotification } from '~/server/subscription-lifecycle.server';
import { confirmPlan, currentTier, liveSubscription } from '~/server/subscriptions.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const START = new Date('2026-11-01T09:00:00Z');
const NEXT = new Date('2026-12-01T09:00:00Z');
const AFTER = new Date('2027-01-01T09:00:00Z');

describe.skipIf(isHostedTarget)('subscription notifications', () => {
  let target: ContractTarget;
  let service: AppSupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target) as unknown as AppSupabaseClient;
  });
  afterAll(() => target?.close());

  const subscriber = (tier: PaidTierId) => newSubscriber(target, tier, START);

  const renewalsOf = (userId: string) => renewalChargesOf(service, userId);

  const event = () => `evt_${crypto.randomUUID()}`;

  it('renews: a new period, the scheduled downgrade, a paid charge — once per event id', async () => {
    const { userId, providerId } = await subscriber('enterprise');
    await confirmPlan(service, testPaymentProvider, {
      userId,
      tier: 'premium',
      idempotencyKey: crypto.randomUUID(),
      shownChargeCents: 0, // a downgrade: nothing today
      now: START,
    });
    const renewed = {
      eventId: event(),
      providerSubscriptionId: providerId,
      outcome: 'renewed' as const,
      period: { start: NEXT, end: AFTER },
      charge: { paymentId: 'pi_renewal', amountCents: 1900, paymentMethod: 'Visa •••• 4242' },
    };
    expect(await applySubscriptionNotification(service, renewed)).toBe('applied');
    expect(await applySubscriptionNotification(service, renewed)).toBe('duplicate');
    expect(await applySubscriptionNotification(service, renewed)).toBe('duplicate');

    expect(await liveSubscription(service, userId, NEXT)).toMatchObject({
      tier: 'premium',
      scheduledTier: null,
      status: 'active',
      periodStart: NEXT.toISOString(),
      periodEnd: AFTER.toISOString(),
    });
    expect(await renewalsOf(userId)).toMatchObject([
      {
        tier: 'premium',
        amount: 19,
        status: 'paid',
        status_reason: null,
        payment_method: 'Visa •••• 4242',
        description: 'Premium membership - monthly renewal',
        idempotency_key: `event:${renewed.eventId}`,
        period_end: AFTER.toISOString(),
      },
    ]);

    // A late delivery of an older renewal (another event id) moves nothing.
    const stale = { ...renewed, eventId: event(), period: { start: START, end: NEXT } };
    expect(await applySubscriptionNotification(service, stale)).toBe('ignored');
    expect(await renewalsOf(userId)).toHaveLength(1);
  });

  it('marks a failed renewal past due with the reason, and a later renewal makes it active', async () => {
    const { userId, providerId } = await subscriber('premium');
    const failed = {
      eventId: event(),
      providerSubscriptionId: providerId,
      outcome: 'past_due' as const,
      charge: { paymentId: 'pi_failed', amountCents: 1900 },
      reason: 'Your card was declined.',
    };
    expect(await applySubscriptionNotification(service, failed)).toBe('applied');
    expect(await applySubscriptionNotification(service, failed)).toBe('duplicate');
    expect(await liveSubscription(service, userId, NEXT)).toMatchObject({ status: 'past_due', tier: 'premium' });
    expect(await renewalsOf(userId)).toMatchObject([
      { status: 'failed', status_reason: 'Your card was declined.', amount: 19, payment_method: null },
    ]);

    const paid = {
      eventId: event(),
      providerSubscriptionId: providerId,
      outcome: 'renewed' as const,
      period: { start: NEXT, end: AFTER },
      charge: { paymentId: 'pi_paid', amountCents: 1900 },
    };
    expect(await applySubscriptionNotification(service, paid)).toBe('applied');
    expect(await liveSubscription(service, userId, NEXT)).toMatchObject({ status: 'active' });
    expect((await renewalsOf(userId)).map((charge) => charge.status)).toEqual(['failed', 'paid']);
  });

  it('cancels: the member is Basic, and later events about it change nothing', async () => {
    const { userId, providerId } = await subscriber('premium');
    const canceled = { eventId: event(), providerSubscriptionId: providerId, outcome: 'canceled' as const };
    expect(await applySubscriptionNotification(service, canceled)).toBe('applied');
    expect(await applySubscriptionNotification(service, canceled)).toBe('duplicate');
    expect(await currentTier(service, userId, START)).toBe('basic');
    const { data } = await service.from('subscriptions').select('status, canceled_at').eq('user_id', userId).single();
    expect(data).toMatchObject({ status: 'canceled', canceled_at: expect.any(String) });

    const late = {
      eventId: event(),
      providerSubscriptionId: providerId,
      outcome: 'renewed' as const,
      period: { start: NEXT, end: AFTER },
      charge: { paymentId: 'pi_late', amountCents: 1900 },
    };
    expect(await applySubscriptionNotification(service, late)).toBe('ignored');
    expect(await renewalsOf(userId)).toEqual([]);
  });

  it('ignores an unknown subscription without recording the event', async () => {
    const unknown = { eventId: event(), providerSubscriptionId: 'sub_nobody', outcome: 'canceled' as const };
    expect(await applySubscriptionNotification(service, unknown)).toBe('ignored');
    const { count } = await service
      .from('payment_events')
      .select('id', { count: 'exact', head: true })
      .eq('id', unknown.eventId);
    expect(count).toBe(0);
  });
});

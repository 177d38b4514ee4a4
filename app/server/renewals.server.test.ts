/**
 * The renewal job against the embedded backend and the real test-mode provider, with the clock
 * moved: a renewal moves the period and adds a charge; a scheduled downgrade applies at renewal;
 * a cancelled subscription closes; a declining card is past due, a successful retry a day later
 * makes it active; past the grace the member is Basic; two runs at once renew once (the lease);
 * two runs at the same moment charge once.
 *
 * Each test subscribes its own member in its own year, before the seeded subscriptions, and reads
 * only that member's records: a run also renews earlier tests' members, which changes nothing here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { newSubscriber, renewalChargesOf } from '../../tests/support/subscribers';
import { DAY_MS, GRACE_DAYS, type PaidTierId } from '~/lib/subscriptions';
import { testPaymentProvider } from '~/server/payments/test-provider.server';
import { RENEWAL_LEASE, runRenewals, scheduleRenewals, type RenewalOptions } from '~/server/renewals.server';
import { confirmPlan, currentTier, liveSubscription, setCancellation } from '~/server/subscriptions.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const VISA = { id: 'pm_test_4242_visa', label: 'Visa •••• 4242' };
const DECLINING = { id: 'pm_test_0341_visa', label: 'Visa •••• 0341' };
const day = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

describe.skipIf(isHostedTarget)('renewal job', () => {
  let target: ContractTarget;
  let service: AppSupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target) as unknown as AppSupabaseClient;
  });
  afterAll(() => target?.close());

  const run = (now: Date, options: Partial<RenewalOptions> = {}) =>
    runRenewals({ service, provider: testPaymentProvider, now, ...options });

  const subscriber = async (tier: PaidTierId, start: Date) => (await newSubscriber(target, tier, start)).userId;

  const renewalsOf = (userId: string) => renewalChargesOf(service, userId);

  it('renews a due subscription: the next period and a paid charge with the payment method', async () => {
    const start = new Date('2020-01-15T08:00:00Z');
    const userId = await subscriber('premium', start);
    const dueAt = new Date('2020-02-15T08:00:00Z');

    const early = await run(day(dueAt, -1), { paymentMethodOf: async () => VISA });
    expect(early).toMatchObject({ leased: true, renewed: 0 });
    expect(await renewalsOf(userId)).toEqual([]);

    const report = await run(dueAt, { paymentMethodOf: async (id) => (id === userId ? VISA : null) });
    expect(report).toMatchObject({ leased: true, errors: 0 });
    expect(report.renewed).toBeGreaterThanOrEqual(1);
    expect(await liveSubscription(service, userId, dueAt)).toMatchObject({
      tier: 'premium',
      status: 'active',
      periodStart: dueAt.toISOString(),
      periodEnd: '2020-03-15T08:00:00.000Z',
    });
    expect(await renewalsOf(userId)).toMatchObject([
      {
        tier: 'premium',
        amount: 19,
        status: 'paid',
        status_reason: null,
        payment_method: 'Visa •••• 4242',
        period_start: dueAt.toISOString(),
        period_end: '2020-03-15T08:00:00.000Z',
      },
    ]);

    // The same moment again: nothing is due any more, nothing is charged.
    await run(dueAt);
    expect(await renewalsOf(userId)).toHaveLength(1);
  });

  it('applies a scheduled downgrade at the renewal, at the new plan’s price', async () => {
    const start = new Date('2021-03-10T12:00:00Z');
    const userId = await subscriber('enterprise', start);
    const downgrade = await confirmPlan(service, testPaymentProvider, {
      userId,
      tier: 'premium',
      idempotencyKey: crypto.randomUUID(),
      shownChargeCents: 0, // a downgrade: nothing today
      now: day(start, 5),
    });
    expect(downgrade).toMatchObject({ ok: true, quote: { kind: 'downgrade' } });
    const dueAt = new Date('2021-04-10T12:00:00Z');
    expect(await currentTier(service, userId, day(dueAt, -1))).toBe('enterprise');

    await run(dueAt);
    expect(await liveSubscription(service, userId, dueAt)).toMatchObject({ tier: 'premium', scheduledTier: null });
    expect(await renewalsOf(userId)).toMatchObject([{ tier: 'premium', amount: 19, status: 'paid' }]);
  });

  it('closes a subscription cancelled at the end of its period, without a charge', async () => {
    const start = new Date('2022-05-01T00:00:00Z');
    const userId = await subscriber('premium', start);
    expect(
      await setCancellation(service, testPaymentProvider, { userId, cancel: true, now: day(start, 3) }),
    ).toMatchObject({ ok: true });
    const dueAt = new Date('2022-06-01T00:00:00Z');
    const report = await run(dueAt);
    expect(report.canceled).toBeGreaterThanOrEqual(1);
    const { data } = await service.from('subscriptions').select('status').eq('user_id', userId).single();
    expect(data?.status).toBe('canceled');
    expect(await currentTier(service, userId, dueAt)).toBe('basic');
    expect(await renewalsOf(userId)).toEqual([]);
  });

  it('marks a declined renewal past due, retries once a day, and a paid retry makes it active', async () => {
    const start = new Date('2023-07-20T10:00:00Z');
    const userId = await subscriber('enterprise', start);
    const dueAt = new Date('2023-08-20T10:00:00Z');
    let method = DECLINING;
    const paymentMethodOf = async () => method;

    await run(dueAt, { paymentMethodOf });
    expect(await liveSubscription(service, userId, dueAt)).toMatchObject({ status: 'past_due', tier: 'enterprise' });
    expect(await currentTier(service, userId, dueAt)).toBe('enterprise'); // through the grace period
    expect(await renewalsOf(userId)).toMatchObject([
      { status: 'failed', status_reason: 'Your card was declined.', amount: 99, payment_method: 'Visa •••• 0341' },
    ]);

    // Later the same day: no second attempt (once a day), even with a card that works.
    method = VISA;
    await run(day(dueAt, 0.5), { paymentMethodOf });
    expect(await renewalsOf(userId)).toHaveLength(1);

    await run(day(dueAt, 1), { paymentMethodOf });
    expect(await liveSubscription(service, userId, day(dueAt, 1))).toMatchObject({
      status: 'active',
      periodStart: dueAt.toISOString(),
      periodEnd: '2023-09-20T10:00:00.000Z',
    });
    expect((await renewalsOf(userId)).map((charge) => charge.status)).toEqual(['failed', 'paid']);
  });

  it('moves a member to Basic once the grace period has passed unpaid', async () => {
    const start = new Date('2024-02-01T09:00:00Z');
    const userId = await subscriber('premium', start);
    const dueAt = new Date('2024-03-01T09:00:00Z');
    const paymentMethodOf = async () => DECLINING;

    for (let days = 0; days < GRACE_DAYS; days += 1) await run(day(dueAt, days), { paymentMethodOf });
    expect(await currentTier(service, userId, day(dueAt, GRACE_DAYS - 1))).toBe('premium');
    expect(await renewalsOf(userId)).toHaveLength(GRACE_DAYS);

    await run(day(dueAt, GRACE_DAYS), { paymentMethodOf });
    expect(await currentTier(service, userId, day(dueAt, GRACE_DAYS))).toBe('basic');
    const { data } = await service.from('subscriptions').select('status').eq('user_id', userId).single();
    expect(data?.status).toBe('canceled');
    expect(await renewalsOf(userId)).toHaveLength(GRACE_DAYS); // no charge when it ends
  });

  it('renews once when two servers run the job at the same moment (the lease)', async () => {
    const start = new Date('2025-01-05T06:00:00Z');
    const userId = await subscriber('premium', start);
    const dueAt = new Date('2025-02-05T06:00:00Z');

    const reports = await Promise.all([run(dueAt), run(dueAt)]);
    expect(reports.filter((report) => report.leased)).toHaveLength(1);
    expect(await renewalsOf(userId)).toHaveLength(1);

    // The lease was released: the next run runs (and finds nothing more to charge).
    expect(await run(dueAt)).toMatchObject({ leased: true });
    expect(await renewalsOf(userId)).toHaveLength(1);
  });

  it('runs in process on a timer that stops cleanly and leaves the lease released', async () => {
    const lease = async () =>
      (await service.from('job_leases').select('holder, updated_at').eq('name', RENEWAL_LEASE).single()).data!;
    const before = await lease();
    const schedule = scheduleRenewals({ service, provider: testPaymentProvider, intervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the first run starts at once
    await schedule.stop();
    const after = await lease();
    expect(after.holder).toBeNull();
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
  });
});

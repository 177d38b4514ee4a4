import { describe, expect, it } from 'vitest';
import { addMonth, quotePlan, type LiveSubscription } from './subscriptions';

const premium: LiveSubscription = {
  id: 's1',
  tier: 'premium',
  status: 'active',
  scheduledTier: null,
  periodStart: '2026-11-01T12:00:00.000Z',
  periodEnd: '2026-12-01T12:00:00.000Z',
  cancelAtPeriodEnd: false,
};
const at = (iso: string) => new Date(iso);

describe('addMonth', () => {
  it('keeps the day, or the last day of a shorter month', () => {
    expect(addMonth(at('2026-11-23T10:00:00Z')).toISOString()).toBe('2026-12-23T10:00:00.000Z');
    expect(addMonth(at('2027-01-31T10:00:00Z')).toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(addMonth(at('2028-01-31T10:00:00Z')).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonth(at('2026-12-15T00:00:00Z')).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });
});

describe('quotePlan', () => {
  const now = at('2026-11-11T12:00:00Z'); // 20 of 30 days left

  it('subscribes at the monthly price', () => {
    expect(quotePlan(null, 'premium', now)).toEqual({ kind: 'subscribe', tier: 'premium', chargeCents: 1900 });
    expect(quotePlan(null, 'enterprise', now)).toEqual({ kind: 'subscribe', tier: 'enterprise', chargeCents: 9900 });
  });

  it('prorates an upgrade over the whole days left', () => {
    expect(quotePlan(premium, 'enterprise', now)).toEqual({
      kind: 'upgrade',
      from: 'premium',
      tier: 'enterprise',
      chargeCents: 5333, // $80 × 20 / 30
      daysLeft: 20,
      periodDays: 30,
      periodEnd: premium.periodEnd,
    });
    // The first day of the period: the whole difference; a part of a day counts as a day.
    expect(quotePlan(premium, 'enterprise', at('2026-11-01T12:00:00Z'))).toMatchObject({ chargeCents: 8000 });
    expect(quotePlan(premium, 'enterprise', at('2026-11-30T13:00:00Z'))).toMatchObject({ daysLeft: 1 });
  });

  it('downgrades at the end of the period, free, and can withdraw that', () => {
    const enterprise = { ...premium, tier: 'enterprise' as const };
    expect(quotePlan(enterprise, 'premium', now)).toEqual({
      kind: 'downgrade',
      from: 'enterprise',
      tier: 'premium',
      chargeCents: 0,
      periodEnd: premium.periodEnd,
    });
    const scheduled = { ...enterprise, scheduledTier: 'premium' as const };
    expect(quotePlan(scheduled, 'premium', now)).toEqual({ kind: 'refused', refusal: 'scheduled' });
    expect(quotePlan(scheduled, 'enterprise', now)).toMatchObject({ kind: 'keep', dropped: 'premium', chargeCents: 0 });
  });

  it('refuses the current plan, a cancelling or past-due subscription', () => {
    expect(quotePlan(premium, 'premium', now)).toEqual({ kind: 'refused', refusal: 'current' });
    expect(quotePlan({ ...premium, cancelAtPeriodEnd: true }, 'enterprise', now)).toEqual({
      kind: 'refused',
      refusal: 'cancelling',
    });
    expect(quotePlan({ ...premium, status: 'past_due' }, 'enterprise', now)).toEqual({
      kind: 'refused',
      refusal: 'past-due',
    });
  });
});

/**
 * Membership subscriptions (ADR 018), the pure part: which paid plans exist, what choosing one
 * does to the member's current subscription (subscribe, upgrade with proration, downgrade at the
 * end of the period, withdraw a scheduled downgrade) and what it costs today. The confirmation
 * page shows this quote and the server acts on the same one (app/server/subscriptions.server.ts).
 */
import { tierById, type TierId } from '~/lib/membership';
import { toCents } from '~/lib/money';
import { refusals } from '~/lib/refusal';

export const PAID_TIERS = ['premium', 'enterprise'] as const;
export type PaidTierId = (typeof PAID_TIERS)[number];

export function isPaidTier(id: unknown): id is PaidTierId {
  return typeof id === 'string' && (PAID_TIERS as readonly string[]).includes(id);
}

/** A member's live subscription, as the pages and the quote read it. */
export interface LiveSubscription {
  id: string;
  tier: PaidTierId;
  status: 'active' | 'past_due';
  scheduledTier: PaidTierId | null;
  periodStart: string;
  periodEnd: string;
  cancelAtPeriodEnd: boolean;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a past-due subscription keeps its plan while the renewal is retried (once a day),
 * counted from the end of the unpaid period; after it the member is on Basic (the renewal job,
 * app/server/renewals.server.ts; stated on Billing).
 */
export const GRACE_DAYS = 7;

/** When the grace of a subscription whose period ended at `periodEnd` ends. */
export function graceEnd(periodEnd: string | Date): Date {
  return new Date(new Date(periodEnd).getTime() + GRACE_DAYS * DAY_MS);
}

/** The same day next month, or the month's last day (31 January → 28 or 29 February), UTC. */
export function addMonth(date: Date): Date {
  const next = new Date(date);
  const day = date.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/** Why a plan cannot be chosen now, in words the member reads (on the page, with a 4xx). */
export const PLAN_REFUSALS = refusals({
  current: { message: 'You are already on this plan.', status: 409 },
  scheduled: { message: 'This change is already scheduled for the end of your billing period.', status: 409 },
  cancelling: {
    message: 'Your subscription is set to end. Choose Keep Subscription on the Billing page before changing your plan.',
    status: 409,
  },
  'past-due': {
    message: 'Your last payment did not go through. Please update your payment before changing your plan.',
    status: 409,
  },
  busy: { message: 'Your previous change is still being processed. Please try again in a moment.', status: 409 },
  declined: {
    message: 'The payment did not go through. Nothing was charged and your plan is unchanged.',
    status: 402,
  },
  'price-changed': {
    message:
      'The amount to pay today changed since this page was shown. Nothing was charged and your plan is unchanged. Please check the new amount and confirm again.',
    status: 409,
  },
  'not-subscribed': { message: 'You have no paid subscription.', status: 409 },
  'not-cancelling': { message: 'Your subscription is not set to end.', status: 409 },
});
export type PlanRefusal = keyof typeof PLAN_REFUSALS;

export type PlanQuote =
  /** A new subscription: the first month today, then monthly. */
  | { kind: 'subscribe'; tier: PaidTierId; chargeCents: number }
  /** Up a plan now: the price difference for the days left of the period today, the new price from the next billing date. */
  | {
      kind: 'upgrade';
      from: PaidTierId;
      tier: PaidTierId;
      chargeCents: number;
      daysLeft: number;
      periodDays: number;
      periodEnd: string;
    }
  /** Down a plan at the end of the period: no charge, the current plan until then. */
  | { kind: 'downgrade'; from: PaidTierId; tier: PaidTierId; chargeCents: 0; periodEnd: string }
  /** Stay on the current plan: a scheduled downgrade is withdrawn. */
  | { kind: 'keep'; tier: PaidTierId; dropped: PaidTierId; chargeCents: 0; periodEnd: string }
  | { kind: 'refused'; refusal: PlanRefusal };

export const monthlyCents = (tier: TierId) => toCents(tierById(tier).monthlyPrice);

/**
 * What choosing `tier` does for a member with `current` (null: none) at `now`. Proration counts
 * whole days, so the amount shown on the confirmation page is the amount charged that day.
 */
export function quotePlan(current: LiveSubscription | null, tier: PaidTierId, now: Date): PlanQuote {
  if (!current) return { kind: 'subscribe', tier, chargeCents: monthlyCents(tier) };
  if (current.status === 'past_due') return { kind: 'refused', refusal: 'past-due' };
  if (current.cancelAtPeriodEnd) return { kind: 'refused', refusal: 'cancelling' };
  if (tier === current.tier) {
    return current.scheduledTier
      ? { kind: 'keep', tier, dropped: current.scheduledTier, chargeCents: 0, periodEnd: current.periodEnd }
      : { kind: 'refused', refusal: 'current' };
  }
  if (tier === current.scheduledTier) return { kind: 'refused', refusal: 'scheduled' };
  const difference = monthlyCents(tier) - monthlyCents(current.tier);
  if (difference < 0)
    return { kind: 'downgrade', from: current.tier, tier, chargeCents: 0, periodEnd: current.periodEnd };
  const start = Date.parse(current.periodStart);
  const end = Date.parse(current.periodEnd);
  const periodDays = Math.max(1, Math.round((end - start) / DAY_MS));
  const daysLeft = Math.min(periodDays, Math.max(0, Math.ceil((end - now.getTime()) / DAY_MS)));
  return {
    kind: 'upgrade',
    from: current.tier,
    tier,
    chargeCents: Math.round((difference * daysLeft) / periodDays),
    daysLeft,
    periodDays,
    periodEnd: current.periodEnd,
  };
}

/** The tier a member has: their live subscription's, else Basic. */
export function tierOfSubscription(subscription: LiveSubscription | null): TierId {
  return subscription?.tier ?? 'basic';
}

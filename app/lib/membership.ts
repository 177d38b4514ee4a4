/**
 * Membership tiers (docs/product.md, "Membership and billing"), defined once for the membership, billing and
 * pricing pages.
 */
import { fromCents, percentOfCents, toCents } from '~/lib/money';

export const TIERS = [
  {
    id: 'basic',
    name: 'Basic',
    monthlyPrice: 0,
    discountPercent: 0,
    isPopular: false,
    features: ['Access to the full marketplace', 'Standard support', 'Lifetime access to purchased agents'],
  },
  {
    id: 'premium',
    name: 'Premium',
    monthlyPrice: 19,
    discountPercent: 10,
    isPopular: true,
    features: [
      '10% discount on every purchase',
      'Priority support',
      'Early access to new agents',
      'Exclusive member deals',
    ],
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    monthlyPrice: 99,
    discountPercent: 20,
    isPopular: false,
    features: [
      '20% discount on every purchase',
      'Dedicated account manager',
      'Custom agent development',
      'Team licences and invoicing',
    ],
  },
] as const;

export type Tier = (typeof TIERS)[number];
export type TierId = Tier['id'];

export function tierById(id: string): Tier {
  return TIERS.find((tier) => tier.id === id) ?? TIERS[0];
}

/** The tier after `id` in the order basic → premium → enterprise; enterprise has none. */
export function nextTier(id: TierId): Tier | null {
  const index = TIERS.findIndex((tier) => tier.id === id);
  return TIERS[index + 1] ?? null;
}

/**
 * A member's tier is the tier of their live subscription (ADR 018); spending drives loyalty only.
 * A reward comes with every LOYALTY_MILESTONE points (1,000 points, one per whole dollar): the one
 * target the Membership page shows. Its progress bar measures spending toward the next one, so
 * 'Spend $X more' with X = (100 − progress) × 10 is exactly what is left to it, and the points
 * away from the next reward are the same number.
 */
export const LOYALTY_MILESTONE = 1000;

/**
 * The one calculation behind every figure of a member's standing: `value` (whole cents) in steps
 * of `step` cents, how far into its step it is and how much is left to the next one.
 */
function stepOf(valueCents: number, stepCents: number): { intoStep: number; leftToNext: number } {
  const intoStep = Math.max(0, valueCents) % stepCents;
  return { intoStep, leftToNext: stepCents - intoStep };
}

const milestoneStep = (totalSpent: number) => stepOf(toCents(totalSpent), toCents(LOYALTY_MILESTONE));

/** Percent (0–100, whole numbers rounded down) of the way to the next loyalty milestone. */
export function progressToMilestone(totalSpent: number): number {
  return Math.floor((milestoneStep(totalSpent).intoStep * 100) / toCents(LOYALTY_MILESTONE));
}

/**
 * 'Spend $X more': X = (100 − progress) × 10 with the exact progress, which is what is left
 * to the next milestone; in whole dollars rounded up, as points count whole dollars ($864 spent:
 * 'Spend $136.00 more', '136 points away' from the reward at 1,000 points).
 */
export function spendMoreToMilestone(totalSpent: number): number {
  return Math.ceil(milestoneStep(totalSpent).leftToNext / 100);
}

/** The points of the next milestone, where the next reward comes (1,000, 2,000, …). */
export function nextMilestonePoints(totalSpent: number): number {
  return (Math.floor(Math.max(0, toCents(totalSpent)) / toCents(LOYALTY_MILESTONE)) + 1) * LOYALTY_MILESTONE;
}

/** One loyalty point per whole dollar spent on completed purchases. */
export function loyaltyPoints(totalSpent: number): number {
  return Math.floor(toCents(Math.max(0, totalSpent)) / 100);
}

/** Points still needed for the next reward: what is left to the next milestone, in points. */
export function pointsToNextReward(totalSpent: number): number {
  return nextMilestonePoints(totalSpent) - loyaltyPoints(totalSpent);
}

/** A list price less a tier discount, rounded to the cent (the same rule as checkout's). */
export function discountedPrice(listPrice: number, discountPercent: number): number {
  const listCents = toCents(listPrice);
  return fromCents(listCents - percentOfCents(listCents, discountPercent));
}

export interface MembershipSummary {
  tier: Tier;
  totalSpent: number;
  purchaseCount: number;
  progressPercent: number;
  spendMore: number;
  milestonePoints: number;
  loyaltyPoints: number;
  pointsAway: number;
  savingsEarned: number;
}

/**
 * Everything the membership page shows: the tier of the member's subscription, and from their
 * completed purchases (summed up by the database) what they paid, how many they made and the
 * discounts they recorded (savings earned is the real sum of those discounts).
 */
export function summarizeMembership(
  completed: { completedCount: number; totalSpent: number; totalSaved: number },
  tierId: TierId,
): MembershipSummary {
  const { totalSpent } = completed;
  return {
    tier: tierById(tierId),
    totalSpent,
    purchaseCount: completed.completedCount,
    progressPercent: progressToMilestone(totalSpent),
    spendMore: spendMoreToMilestone(totalSpent),
    milestonePoints: nextMilestonePoints(totalSpent),
    loyaltyPoints: loyaltyPoints(totalSpent),
    pointsAway: pointsToNextReward(totalSpent),
    savingsEarned: completed.totalSaved,
  };
}

/** Purchase statuses and their colours (docs/product.md, "Buying, collecting, reviewing"). */
export const PURCHASE_STATUSES = ['completed', 'pending', 'failed', 'refunded'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** Billing and subscription statuses. */
export const BILLING_STATUSES = ['paid', 'active', 'pending', 'past_due', 'failed', 'cancelled', 'refunded'] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

export type StatusTone = 'green' | 'yellow' | 'red' | 'blue';

export const STATUS_TONE: Record<PurchaseStatus | BillingStatus, StatusTone> = {
  completed: 'green',
  paid: 'green',
  active: 'green',
  pending: 'yellow',
  past_due: 'yellow',
  failed: 'red',
  cancelled: 'red',
  refunded: 'blue',
};

/** Badge classes per tone, AA contrast in both themes. */
export const TONE_CLASS: Record<StatusTone, string> = {
  green: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
  yellow: 'bg-yellow-100 text-yellow-900 dark:bg-yellow-950 dark:text-yellow-200',
  red: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  blue: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300',
};

export function statusLabel(status: PurchaseStatus | BillingStatus): string {
  const words = status.replace('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

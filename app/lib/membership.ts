/**
 * Membership tiers (§2 "Membership", §9), defined once for the membership, billing and
 * pricing pages.
 */
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

/** 'Spend $X more' where X = (100 − progress percent) × 10 (§9). */
export function spendMoreToNextTier(progressPercent: number): number {
  const clamped = Math.min(100, Math.max(0, progressPercent));
  return Math.round((100 - clamped) * 10);
}

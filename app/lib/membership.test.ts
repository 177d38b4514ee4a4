import { describe, expect, it } from 'vitest';
import {
  STATUS_TONE,
  TIERS,
  loyaltyPoints,
  nextTier,
  pointsToNextReward,
  progressToMilestone,
  discountedPrice,
  nextMilestonePoints,
  spendMoreToMilestone,
  summarizeMembership,
} from './membership';
import { totalOf } from './money';

describe('tiers', () => {
  it('matches the tier prices and discounts of docs/product.md', () => {
    expect(TIERS.map((tier) => [tier.name, tier.monthlyPrice, tier.discountPercent, tier.isPopular])).toEqual([
      ['Basic', 0, 0, false],
      ['Premium', 19, 10, true],
      ['Enterprise', 99, 20, false],
    ]);
    expect(nextTier('basic')?.id).toBe('premium');
    expect(nextTier('premium')?.id).toBe('enterprise');
    expect(nextTier('enterprise')).toBeNull();
  });

  it.each([
    [0, 0, 1000],
    [999.99, 99, 1000],
    [1000, 0, 2000],
    [1500, 50, 2000],
    [1999.99, 99, 2000],
    [2000, 0, 3000],
    [-5, 0, 1000],
  ])('$%d spent → %d%% to the milestone of %d points', (spent, progress, milestone) => {
    expect(progressToMilestone(spent)).toBe(progress);
    expect(nextMilestonePoints(spent)).toBe(milestone);
  });

  it.each([
    // spent, 'Spend $X more', points, 'N points away'
    [0, 1000, 0, 1000],
    [364, 636, 364, 636],
    [864, 136, 864, 136],
    [863.5, 137, 863, 137],
    [999.99, 1, 999, 1],
    [1000, 1000, 1000, 1000],
    [1999, 1, 1999, 1],
    [1999.99, 1, 1999, 1],
    [2000, 1000, 2000, 1000],
    [5000.5, 1000, 5000, 1000],
  ])("$%d spent: 'Spend $%d more', %d points, %d points away", (spent, spendMore, points, away) => {
    expect(spendMoreToMilestone(spent)).toBe(spendMore);
    expect(loyaltyPoints(spent)).toBe(points);
    expect(pointsToNextReward(spent)).toBe(away);
  });

  it("keeps 'Spend $X more' at X = (100 − progress) × 10 on whole percents", () => {
    for (const spent of [0, 100, 370, 1250, 1990, 4000]) {
      expect(spendMoreToMilestone(spent)).toBe((100 - progressToMilestone(spent)) * 10);
    }
  });

  it('shows one target: the spending left and the points away from the next reward are the same number', () => {
    for (let cents = 0; cents < 400_000; cents += 137) {
      const spent = cents / 100;
      expect(spendMoreToMilestone(spent), `$${spent}`).toBe(pointsToNextReward(spent));
      expect(loyaltyPoints(spent) + pointsToNextReward(spent), `$${spent}`).toBe(nextMilestonePoints(spent));
    }
  });
});

describe('points and savings', () => {
  it('gives one point per whole dollar', () => {
    expect(loyaltyPoints(0)).toBe(0);
    expect(loyaltyPoints(99.99)).toBe(99);
    expect(loyaltyPoints(0.1 + 0.2 + 99.7)).toBe(100);
    expect(pointsToNextReward(0)).toBe(1000);
    expect(pointsToNextReward(120)).toBe(880);
    expect(pointsToNextReward(500.5)).toBe(500);
  });

  it('sums money in cents', () => {
    expect(totalOf([0.1, 0.2])).toBe(0.3);
    expect(totalOf([])).toBe(0);
  });

  it('takes the tier discount off a list price, to the cent', () => {
    expect(discountedPrice(149, 10)).toBe(134.1);
    expect(discountedPrice(149, 20)).toBe(119.2);
    expect(discountedPrice(99.99, 10)).toBe(89.99); // 9.999 off rounds to 10.00
    expect(discountedPrice(100, 0)).toBe(100);
  });

  it("summarises a member: the tier given (the subscription's), figures from the completed purchases' totals", () => {
    const completed = (amounts: number[], discounts: number[] = []) => ({
      completedCount: amounts.length,
      totalSpent: totalOf(amounts),
      totalSaved: totalOf(discounts),
    });
    expect(summarizeMembership(completed([149, 71.55, 1000], [7.95]), 'basic').savingsEarned).toBe(7.95);
    expect(summarizeMembership(completed([149, 79.5, 1000]), 'enterprise')).toMatchObject({
      tier: { id: 'enterprise' },
      milestonePoints: 2000,
      totalSpent: 1228.5,
      purchaseCount: 3,
      progressPercent: 22,
      spendMore: 772, // $771.50 left, in whole dollars

      loyaltyPoints: 1228,
      savingsEarned: 0,
    });
  });
});

describe('status colours', () => {
  it('gives each status its one colour', () => {
    expect(STATUS_TONE).toMatchObject({
      completed: 'green',
      paid: 'green',
      active: 'green',
      pending: 'yellow',
      past_due: 'yellow',
      failed: 'red',
      cancelled: 'red',
      refunded: 'blue',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { fromCents, percentOfCents, toCents, totalOf } from './money';

describe('money', () => {
  it('goes through whole cents, so sums and shares are exact', () => {
    expect(toCents(89.1)).toBe(8910);
    expect(toCents(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996
    expect(fromCents(8910)).toBe(89.1);
    expect(totalOf([0.1, 0.2, 0.3])).toBe(0.6); // 0.1 + 0.2 + 0.3 is 0.6000000000000001
    expect(percentOfCents(4999, 10)).toBe(500); // 499.9 rounds to the cent
    expect(percentOfCents(4999, 15)).toBe(750);
  });
});

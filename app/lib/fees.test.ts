import { describe, expect, it } from 'vitest';
import { PLATFORM_FEE_PERCENT, platformFee, sellerNet } from './fees';

describe('platform fee', () => {
  it('is 10 % of a sale, to the cent, and the seller keeps the rest', () => {
    expect(PLATFORM_FEE_PERCENT).toBe(10);
    expect(platformFee(99)).toBe(9.9);
    expect(sellerNet(99)).toBe(89.1);
    expect(platformFee(49.99)).toBe(5);
    expect(sellerNet(49.99)).toBe(44.99);
    expect(platformFee(0)).toBe(0);
  });

  it('never loses a cent between fee and net', () => {
    for (const gross of [0.01, 0.05, 1.15, 19.99, 123.45, 299.99]) {
      expect(Math.round((platformFee(gross) + sellerNet(gross)) * 100)).toBe(Math.round(gross * 100));
    }
  });
});

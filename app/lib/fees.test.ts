import { describe, expect, it } from 'vitest';
import { platformFee, sellerNet } from './fees';

describe('platform fee', () => {
  it('is the rate’s share of a sale, to the cent, and the seller keeps the rest', () => {
    expect(platformFee(99, 10)).toBe(9.9);
    expect(sellerNet(99, 10)).toBe(89.1);
    expect(platformFee(49.99, 10)).toBe(5);
    expect(sellerNet(49.99, 10)).toBe(44.99);
    expect(platformFee(0, 10)).toBe(0);
    expect(platformFee(100, 12.5)).toBe(12.5);
    expect(platformFee(80, 0)).toBe(0);
  });

  it('never loses a cent between fee and net', () => {
    for (const percent of [0, 7.5, 10, 33.33, 50])
      for (const gross of [0.01, 0.05, 1.15, 19.99, 123.45, 299.99]) {
        expect(Math.round((platformFee(gross, percent) + sellerNet(gross, percent)) * 100)).toBe(
          Math.round(gross * 100),
        );
      }
  });
});

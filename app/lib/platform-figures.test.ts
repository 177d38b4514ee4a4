import { describe, expect, it } from 'vitest';
import { figureRows, formatCount } from './platform-figures';

describe('formatCount', () => {
  it('says a count below 1,000 exactly', () => {
    expect([0, 1, 72, 999].map(formatCount)).toEqual(['0', '1', '72', '999']);
  });

  it('rounds a larger count down to two significant digits, with + only when it rounded', () => {
    expect([1000, 1234, 9999, 10_000, 10_500, 54_321, 1_250_000].map(formatCount)).toEqual([
      '1,000',
      '1,200+',
      '9,900+',
      '10,000',
      '10,000+',
      '54,000+',
      '1,200,000+',
    ]);
  });
});

describe('figureRows', () => {
  it('labels each figure by what it counts, singular for one', () => {
    expect(
      figureRows({ agentCount: 72, sellerCount: 1, purchaseCount: 1234, reviewCount: 40, avgRating: 4.56 }),
    ).toEqual([
      { value: '72', label: 'AI agents' },
      { value: '1', label: 'Seller' },
      { value: '1,200+', label: 'Purchases' },
      { value: '4.6', label: 'Average rating of 40 reviews' },
    ]);
  });

  it('claims no rating while nothing is reviewed', () => {
    expect(figureRows({ agentCount: 0, sellerCount: 0, purchaseCount: 0, reviewCount: 0, avgRating: null })[3]).toEqual(
      {
        value: 'No reviews yet',
        label: 'Average rating',
      },
    );
  });
});

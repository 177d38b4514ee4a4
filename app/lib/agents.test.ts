import { describe, expect, it } from 'vitest';
import { formatPrice, formatRating, toAgentSummary } from './agents';

describe('agent display helpers', () => {
  it('gives no rating when there are no reviews (not five stars), else one decimal', () => {
    expect(formatRating(null, 0)).toBeNull();
    expect(formatRating(0, 0)).toBeNull();
    expect(formatRating(3, 0)).toBeNull();
    expect(formatRating(4.25, 4)).toBe('4.3');
    expect(formatRating(4, 1)).toBe('4.0');
  });

  it('formats prices in dollars', () => {
    expect(formatPrice(99)).toBe('$99');
    expect(formatPrice(19.5)).toBe('$19.50');
    expect(formatPrice(0)).toBe('$0');
  });

  it('turns numeric strings from the Data API into numbers', () => {
    const agent = toAgentSummary({
      id: 'a',
      name: 'A',
      description: null,
      price: '129.00',
      category: 'Sales',
      thumbnail_url: null,
      seller_username: null,
      avg_rating: '4.50',
      review_count: '2',
    });
    expect(agent).toMatchObject({ price: 129, avgRating: 4.5, reviewCount: 2, description: '' });
  });
});

import { describe, expect, it } from 'vitest';
import {
  agentCallToAction,
  formatReviewDate,
  galleryImages,
  metaDescription,
  purchaseCountLabel,
  ratingBucketLabel,
  ratedReviewCount,
  ratingDistribution,
  type RatingCount,
  reviewCountLabel,
  reviewPaging,
} from './agent-detail';

describe('reviewPaging', () => {
  it('computes the row range of a page', () => {
    expect(reviewPaging(1, 12)).toEqual({ page: 1, pageCount: 3, from: 0, to: 4 });
    expect(reviewPaging(3, 12)).toEqual({ page: 3, pageCount: 3, from: 10, to: 14 });
  });

  it('clamps pages past the end to the last page', () => {
    expect(reviewPaging(9, 12)).toEqual({ page: 3, pageCount: 3, from: 10, to: 14 });
    expect(reviewPaging(2, 5)).toEqual({ page: 1, pageCount: 1, from: 0, to: 4 });
  });

  it('has one (empty) page without reviews', () => {
    expect(reviewPaging(4, 0)).toEqual({ page: 1, pageCount: 1, from: 0, to: 4 });
  });

  it('clamps junk below 1', () => {
    expect(reviewPaging(0, 20).page).toBe(1);
    expect(reviewPaging(Number.NaN, 20).page).toBe(1);
    expect(reviewPaging(-3, 20).page).toBe(1);
  });

  it('takes another page size', () => {
    expect(reviewPaging(2, 7, 3)).toEqual({ page: 2, pageCount: 3, from: 3, to: 5 });
  });
});

describe('ratingDistribution', () => {
  /** The counts the database would answer for these ratings. */
  const countsOf = (ratings: number[]): RatingCount[] =>
    [...new Set(ratings)].map((rating) => ({ rating, count: ratings.filter((r) => r === rating).length }));

  it('counts each star from 5 down to 1 with percentages', () => {
    expect(ratingDistribution(countsOf([5, 5, 3, 3]))).toEqual([
      { stars: 5, count: 2, percent: 50 },
      { stars: 4, count: 0, percent: 0 },
      { stars: 3, count: 2, percent: 50 },
      { stars: 2, count: 0, percent: 0 },
      { stars: 1, count: 0, percent: 0 },
    ]);
    expect(ratedReviewCount(countsOf([5, 5, 3, 3]))).toBe(4);
  });

  it('is all zeros without reviews', () => {
    expect(ratingDistribution([]).map((bucket) => [bucket.count, bucket.percent])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    expect(ratedReviewCount([])).toBe(0);
  });

  it('ignores ratings outside 1–5', () => {
    expect(ratingDistribution(countsOf([0, 6, 2.5, 4])).map((bucket) => bucket.count)).toEqual([0, 1, 0, 0, 0]);
    expect(ratedReviewCount(countsOf([0, 6, 2.5, 4]))).toBe(1);
  });

  it('rounds percentages', () => {
    expect(ratingDistribution(countsOf([5, 4, 4])).map((bucket) => bucket.percent)).toEqual([33, 67, 0, 0, 0]);
  });

  it('works on counts past the Data API’s 1,000 rows', () => {
    const counts = [
      { rating: 5, count: 2_000 },
      { rating: 1, count: 500 },
    ];
    expect(ratingDistribution(counts).map((bucket) => [bucket.count, bucket.percent])).toEqual([
      [2_000, 80],
      [0, 0],
      [0, 0],
      [0, 0],
      [500, 20],
    ]);
    expect(ratedReviewCount(counts)).toBe(2_500);
  });
});

describe('labels', () => {
  it('gives a text equivalent for each bar', () => {
    expect(ratingBucketLabel({ stars: 5, count: 12 })).toBe('5 stars: 12 reviews');
    expect(ratingBucketLabel({ stars: 1, count: 1 })).toBe('1 star: 1 review');
    expect(ratingBucketLabel({ stars: 2, count: 0 })).toBe('2 stars: 0 reviews');
  });

  it('counts purchases and reviews', () => {
    expect(purchaseCountLabel(0)).toBe('0 purchases');
    expect(purchaseCountLabel(1)).toBe('1 purchase');
    expect(purchaseCountLabel(14)).toBe('14 purchases');
    expect(reviewCountLabel(1)).toBe('1 review');
    expect(reviewCountLabel(4)).toBe('4 reviews');
  });
});

describe('formatReviewDate', () => {
  it('prints the UTC day in en-US medium style', () => {
    expect(formatReviewDate('2026-10-16T23:52:09.014Z')).toBe('Oct 16, 2026');
    expect(formatReviewDate('2026-11-03T00:04:09+02:00')).toBe('Nov 2, 2026');
  });

  it('prints nothing for an invalid date', () => {
    expect(formatReviewDate('not a date')).toBe('');
  });
});

describe('metaDescription', () => {
  it('keeps short text, collapsing whitespace', () => {
    expect(metaDescription('  Plans   and\nlaunches.  ')).toBe('Plans and launches.');
  });

  it('cuts long text at a word boundary with an ellipsis', () => {
    const text = `${'word '.repeat(60)}end`;
    const result = metaDescription(text);
    expect(result.length).toBeLessThanOrEqual(155);
    expect(result.endsWith('word…')).toBe(true);
  });

  it('cuts a text without spaces', () => {
    expect(metaDescription('x'.repeat(300), 20)).toBe(`${'x'.repeat(19)}…`);
  });
});

describe('galleryImages', () => {
  it('puts the thumbnail first without duplicates', () => {
    expect(galleryImages('/a.svg', ['/a.svg', '/b.svg', '', null])).toEqual(['/a.svg', '/b.svg']);
  });

  it('works without a thumbnail or images', () => {
    expect(galleryImages(null, null)).toEqual([]);
    expect(galleryImages(null, ['/b.svg'])).toEqual(['/b.svg']);
  });
});

describe('agentCallToAction', () => {
  const base = {
    viewerId: 'buyer',
    canPlaceOrders: true,
    sellerId: 'seller',
    status: 'published' as const,
    owned: false,
  };

  it('offers Buy to a signed-in buyer who does not own it', () => {
    expect(agentCallToAction(base)).toBe('buy');
  });

  it('asks an anonymous visitor to sign in first', () => {
    expect(agentCallToAction({ ...base, viewerId: null })).toBe('sign-in');
  });

  it('shows an owner their collection', () => {
    expect(agentCallToAction({ ...base, owned: true })).toBe('owned');
    expect(agentCallToAction({ ...base, owned: true, status: 'archived' })).toBe('owned');
  });

  it('offers Edit to the seller, whatever the status', () => {
    expect(agentCallToAction({ ...base, viewerId: 'seller' })).toBe('edit');
    expect(agentCallToAction({ ...base, viewerId: 'seller', status: 'draft' })).toBe('edit');
  });

  it('sells nothing off sale or without the permission', () => {
    expect(agentCallToAction({ ...base, status: 'draft' })).toBe('unavailable');
    expect(agentCallToAction({ ...base, viewerId: null, status: 'archived' })).toBe('unavailable');
    expect(agentCallToAction({ ...base, canPlaceOrders: false })).toBe('unavailable');
  });
});

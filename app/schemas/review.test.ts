import { describe, expect, it } from 'vitest';
import { parseFields } from '~/lib/forms';
import { MAX_REVIEW_LENGTH, REVIEW_MESSAGES, ReviewSchema, starLabel } from './review';

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe('review form', () => {
  it('reads the rating as a number and trims the review', () => {
    const submission = parseFields(form({ rating: '4', review: '  Works well.  ' }), ReviewSchema);
    expect(submission.status).toBe('success');
    if (submission.status === 'success') {
      expect(submission.value).toEqual({ rating: 4, review: 'Works well.' });
    }
  });

  it('stores an empty or missing review as null', () => {
    expect(ReviewSchema.parse({ rating: '5', review: '   ' }).review).toBeNull();
    expect(ReviewSchema.parse({ rating: '5' }).review).toBeNull();
  });

  it.each([undefined, '', '0', '6', '4.5', ' 3', 'five', '1e0'])('refuses the rating %j beside the stars', (rating) => {
    const fields: Record<string, string> = { review: 'kept' };
    if (rating !== undefined) fields.rating = rating;
    const submission = parseFields(form(fields), ReviewSchema);
    if (submission.status === 'success') throw new Error('accepted');
    expect(submission.error?.rating).toEqual([REVIEW_MESSAGES.rating]);
    // What was typed comes back with the error.
    expect(submission.payload.review).toBe('kept');
  });

  it('allows 2,000 characters, counting a CRLF line break as one, and refuses more', () => {
    const full = 'a'.repeat(MAX_REVIEW_LENGTH - 2) + '\r\nb';
    expect(ReviewSchema.parse({ rating: '3', review: full }).review).toHaveLength(MAX_REVIEW_LENGTH);
    const result = ReviewSchema.safeParse({ rating: '3', review: 'a'.repeat(MAX_REVIEW_LENGTH + 1) });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]?.message).toBe(REVIEW_MESSAGES.reviewTooLong);
  });

  it('keeps markup as plain text (React escapes it on display)', () => {
    expect(ReviewSchema.parse({ rating: '4', review: '<b>html</b>' }).review).toBe('<b>html</b>');
  });

  it('names each star choice', () => {
    expect([1, 2, 5].map(starLabel)).toEqual(['1 star', '2 stars', '5 stars']);
  });
});

/**
 * The rating form: 1 to 5 stars and an optional review of up
 * to 2,000 characters (the database's reviews_review_text_length check). Shared by the action
 * and the form's constraints.
 */
import { z } from 'zod';

export const MAX_REVIEW_LENGTH = 2000;
export const RATING_VALUES = [1, 2, 3, 4, 5] as const;

export const REVIEW_MESSAGES = {
  rating: 'Please choose a rating from 1 to 5 stars.',
  reviewTooLong: `Your review can be at most ${MAX_REVIEW_LENGTH.toLocaleString('en-US')} characters.`,
  notBuyer: 'Only buyers who completed a purchase of this agent can rate it.',
  saved: 'Thanks! Your rating has been saved.',
} as const;

/** "1 star", "4 stars": the accessible name of each choice. */
export function starLabel(stars: number): string {
  return stars === 1 ? '1 star' : `${stars} stars`;
}

export const ReviewSchema = z.object({
  rating: z
    .string({ error: REVIEW_MESSAGES.rating })
    .regex(/^[1-5]$/, REVIEW_MESSAGES.rating)
    .transform(Number),
  // Browsers send a textarea's line breaks as CRLF but count them as one character: counted as
  // the person typed them. Trimmed; empty is stored as NULL.
  review: z
    .string()
    .optional()
    .transform((value) => (value ?? '').replace(/\r\n?/g, '\n').trim())
    .pipe(z.string().max(MAX_REVIEW_LENGTH, REVIEW_MESSAGES.reviewTooLong))
    .transform((value) => value || null),
});

export type ReviewForm = z.infer<typeof ReviewSchema>;

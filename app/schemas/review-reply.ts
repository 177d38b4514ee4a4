/**
 * A seller's public reply to a review of one of their agents (/dashboard/reviews): up to 1,000
 * characters (the database's review_replies_reply_text_length check), or deleted. Shared by the
 * action and the form's constraints.
 */
import { z } from 'zod';

export const MAX_REPLY_LENGTH = 1000;

export const REPLY_MESSAGES = {
  review: 'Choose a review.',
  intent: 'Choose what to do.',
  empty: 'Please write a reply.',
  tooLong: `Your reply can be at most ${MAX_REPLY_LENGTH.toLocaleString('en-US')} characters.`,
  notYours: 'This review is not about one of your agents.',
  saved: 'Your reply is published under the review.',
  deleted: 'Your reply was deleted.',
  nothingToDelete: 'This review has no reply to delete.',
} as const;

const reviewId = z.guid(REPLY_MESSAGES.review);

export const ReplyActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('save'),
      reviewId,
      // Line breaks counted as typed (CRLF is one character), trimmed.
      reply: z
        .string(REPLY_MESSAGES.empty)
        .transform((value) => value.replace(/\r\n?/g, '\n').trim())
        .pipe(z.string().min(1, REPLY_MESSAGES.empty).max(MAX_REPLY_LENGTH, REPLY_MESSAGES.tooLong)),
    }),
    z.object({ intent: z.literal('delete'), reviewId }),
  ],
  REPLY_MESSAGES.intent,
);
export type ReplyAction = z.infer<typeof ReplyActionSchema>;

/**
 * The reason an admin or a seller gives for a change that someone else lives with (a refund, a
 * role change, a ban, a moderation): one rule for every such form, kept in the audit log or on
 * the purchase.
 */
import { z } from 'zod';

export const MIN_REASON = 3;
export const MAX_REASON = 500;

export const REASON_MESSAGES = {
  short: `Please give a reason of at least ${MIN_REASON} characters.`,
  long: `The reason can be at most ${MAX_REASON} characters.`,
} as const;

export const reasonSchema = z
  .string(REASON_MESSAGES.short)
  .trim()
  .min(MIN_REASON, REASON_MESSAGES.short)
  .max(MAX_REASON, REASON_MESSAGES.long);

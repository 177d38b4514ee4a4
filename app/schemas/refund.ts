/**
 * The refund form (sellers on /dashboard/earnings, admins on /dashboard/disputes): which
 * purchase and why. Shared by the server action and the form's constraints.
 */
import { z } from 'zod';

export const MIN_REFUND_REASON = 3;
export const MAX_REFUND_REASON = 500;

export const REFUND_MESSAGES = {
  purchase: 'Choose a purchase to refund.',
  reasonShort: `Please give a reason of at least ${MIN_REFUND_REASON} characters.`,
  reasonLong: `The reason can be at most ${MAX_REFUND_REASON} characters.`,
  done: 'Purchase refunded.',
} as const;

export const RefundSchema = z.object({
  purchaseId: z.guid(REFUND_MESSAGES.purchase),
  reason: z
    .string(REFUND_MESSAGES.reasonShort)
    .trim()
    .min(MIN_REFUND_REASON, REFUND_MESSAGES.reasonShort)
    .max(MAX_REFUND_REASON, REFUND_MESSAGES.reasonLong),
});

/** `?refund=<purchaseId>`: the purchase whose refund form is open, if the value is an id. */
export function parseRefundParam(value: string | null): string | null {
  const result = z.guid().safeParse(value);
  return result.success ? result.data.toLowerCase() : null;
}

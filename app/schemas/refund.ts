/**
 * The refund form (sellers on /dashboard/earnings, admins on /dashboard/disputes): which
 * purchase and why. Shared by the server action and the form's constraints.
 */
import { z } from 'zod';
import { REASON_MESSAGES, reasonSchema } from '~/schemas/reason';

export const REFUND_MESSAGES = {
  purchase: 'Choose a purchase to refund.',
  reasonShort: REASON_MESSAGES.short,
  reasonLong: REASON_MESSAGES.long,
  done: 'Purchase refunded.',
} as const;

export const RefundSchema = z.object({
  purchaseId: z.guid(REFUND_MESSAGES.purchase),
  reason: reasonSchema,
});

/** `?refund=<purchaseId>`: the purchase whose refund form is open, if the value is an id. */
export function parseRefundParam(value: string | null): string | null {
  const result = z.guid().safeParse(value);
  return result.success ? result.data.toLowerCase() : null;
}

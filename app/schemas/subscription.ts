/**
 * The membership plan forms: the confirmation page (/dashboard/membership/confirm) and Billing's
 * Cancel Subscription / Keep Subscription. Shared by the server actions and the forms.
 */
import { z } from 'zod';
import { ShownPriceSchema } from '~/lib/shown-price';
import { PAID_TIERS } from '~/lib/subscriptions';

export const PLAN_MESSAGES = {
  tier: 'Choose Premium or Enterprise.',
  expired: 'This form has expired. Please reload the page and try again.',
  intent: 'Choose Cancel Subscription or Keep Subscription.',
} as const;

export const PlanConfirmSchema = z.object({
  intent: z.literal('confirm'),
  tier: z.enum(PAID_TIERS, { error: PLAN_MESSAGES.tier }),
  idempotencyKey: z.uuid({ error: PLAN_MESSAGES.expired }),
  /** The amount charged today as the page showed it: no other is charged. */
  price: ShownPriceSchema,
});

export const CancellationSchema = z.object({
  intent: z.enum(['cancel', 'resume'], { error: PLAN_MESSAGES.intent }),
});

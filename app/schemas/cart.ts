/**
 * The cart's forms (/cart, ADR 072): add an agent (from its page or the marketplace, back to
 * where the buyer was), remove one, and check out the whole cart at the total shown.
 */
import { z } from 'zod';
import { ShownPriceSchema } from '~/lib/shown-price';

const agentId = z.guid('Choose an agent.').transform((value) => value.toLowerCase());

export const CartActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('add'), agentId, returnTo: z.string().max(2000).optional() }),
    z.object({ intent: z.literal('remove'), agentId }),
    z.object({
      intent: z.literal('checkout'),
      idempotencyKey: z.uuid({ error: 'This form has expired. Please reload the page and try again.' }),
      // The total the cart page showed, as the single Buy carries its price.
      total: ShownPriceSchema,
    }),
  ],
  'Choose what to do.',
);
export type CartAction = z.infer<typeof CartActionSchema>;

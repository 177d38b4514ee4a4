/**
 * The cart's forms (/cart, ADR 072): add an agent (from its page or the marketplace, back to
 * where the buyer was), remove one, and check out the whole cart at the total shown.
 */
import { z } from 'zod';
import { MAX_CART_ITEMS } from '~/lib/cart';
import { ShownPriceSchema } from '~/lib/shown-price';

const EXPIRED = 'This form has expired. Please reload the page and try again.';

const agentId = z.guid('Choose an agent.').transform((value) => value.toLowerCase());

export const CartActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('add'), agentId, returnTo: z.string().max(2000).optional() }),
    z.object({ intent: z.literal('remove'), agentId }),
    z.object({
      intent: z.literal('checkout'),
      idempotencyKey: z.uuid({ error: EXPIRED }),
      // The total the cart page showed, as the single Buy carries its price, and each line at its
      // price ("<agent id>:<cents>,…").
      total: ShownPriceSchema,
      lines: z
        .string({ error: EXPIRED })
        .max(MAX_CART_ITEMS * 60, EXPIRED)
        .regex(/^(?:[0-9a-f-]{36}:[0-9]{1,10})(?:,[0-9a-f-]{36}:[0-9]{1,10})*$/i, EXPIRED)
        .transform(
          (value) =>
            new Map(
              value.split(',').map((pair) => {
                const [agentId, cents] = pair.split(':');
                return [agentId!.toLowerCase(), Number(cents)] as const;
              }),
            ),
        ),
    }),
  ],
  'Choose what to do.',
);
export type CartAction = z.infer<typeof CartActionSchema>;

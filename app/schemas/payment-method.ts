/**
 * The saved-payment-method forms on Billing: Add Payment Method (its own page), Edit (the
 * expiry), Make Default and Remove. Shared by the server actions and the forms. The card number
 * and the CVC are secrets: app/server/forms.server.ts never sends them back to the page.
 */
import { z } from 'zod';
import { expiryIsFuture, parseExpiry } from '~/lib/payment-methods';

export const CARD_MESSAGES = {
  number: 'Enter the card number: 12 to 19 digits.',
  expiry: 'Enter the expiry date as MM/YY.',
  expired: 'This expiry date has passed.',
  cvc: 'Enter the 3 or 4 digit security code (CVC).',
  method: 'This payment method does not exist.',
  intent: 'Choose Edit, Make Default or Remove.',
} as const;

const expirySchema = z.string(CARD_MESSAGES.expiry).transform((text, context) => {
  const expiry = parseExpiry(text);
  if (!expiry) {
    context.addIssue({ code: 'custom', message: CARD_MESSAGES.expiry });
    return z.NEVER;
  }
  if (!expiryIsFuture(expiry.expMonth, expiry.expYear)) {
    context.addIssue({ code: 'custom', message: CARD_MESSAGES.expired });
    return z.NEVER;
  }
  return expiry;
});

export const NewCardSchema = z.object({
  cardNumber: z
    .string(CARD_MESSAGES.number)
    .transform((text) => text.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^[0-9]{12,19}$/, CARD_MESSAGES.number)),
  expiry: expirySchema,
  cvc: z
    .string(CARD_MESSAGES.cvc)
    .trim()
    .regex(/^[0-9]{3,4}$/, CARD_MESSAGES.cvc),
});

const methodId = z.uuid({ error: CARD_MESSAGES.method });

export const PaymentMethodActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('edit-expiry'), methodId, expiry: expirySchema }),
    z.object({ intent: z.literal('make-default'), methodId }),
    z.object({ intent: z.literal('remove'), methodId }),
  ],
  { error: CARD_MESSAGES.intent },
);

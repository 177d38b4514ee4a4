/**
 * The price a customer agrees to is the price they were shown. Every form that charges (Buy on
 * the agent page, the plan confirmation) carries that price in its field `price`, as dollars
 * with two decimals, and
 * the server charges only when the price at that moment is the same (a seller who changed the
 * price meanwhile, a discount that ended or began, a renewal that moved a proration): otherwise
 * the form is refused with the current price and nothing is charged.
 */
import { z } from 'zod';

/** What an old form, from before its page showed the price it charges, is told. */
const EXPIRED = 'This form has expired. Please reload the page and try again.';

/** Whole cents as a form carries them: 8910 → "89.10". */
export function shownPriceValue(cents: number): string {
  const whole = Math.trunc(cents);
  return `${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

/** The field's value back to whole cents ("89.10" → 8910), without floating point on the way. */
export const ShownPriceSchema = z
  .string({ error: EXPIRED })
  .regex(/^[0-9]{1,8}\.[0-9]{2}$/, EXPIRED)
  .transform((value) => Number(value.replace('.', '')));

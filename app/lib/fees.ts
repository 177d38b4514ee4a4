/**
 * The platform fee: the one place its rate is stated. `/become-seller` and `/pricing`
 * show it, and a seller's earnings are computed with it.
 */
import { fromCents, percentOfCents, toCents } from '~/lib/money';

export const PLATFORM_FEE_PERCENT = 10;

/** The platform's share of a sale of `gross` dollars, rounded to the cent. */
export function platformFee(gross: number): number {
  return fromCents(percentOfCents(toCents(gross), PLATFORM_FEE_PERCENT));
}

/** What the seller keeps of a sale of `gross` dollars: the rest, so fee and net add up to the sale. */
export function sellerNet(gross: number): number {
  return fromCents(toCents(gross) - toCents(platformFee(gross)));
}

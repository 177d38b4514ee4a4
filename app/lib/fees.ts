/**
 * The platform fee: the one place its rate is stated. `/become-seller` and `/pricing`
 * show it, and a seller's earnings are computed with it.
 */
export const PLATFORM_FEE_PERCENT = 10;

const cents = (dollars: number) => Math.round(dollars * 100);

/** The platform's share of a sale of `gross` dollars, rounded to the cent. */
export function platformFee(gross: number): number {
  return Math.round((cents(gross) * PLATFORM_FEE_PERCENT) / 100) / 100;
}

/** What the seller keeps of a sale of `gross` dollars: the rest, so fee and net add up to the sale. */
export function sellerNet(gross: number): number {
  return (cents(gross) - cents(platformFee(gross))) / 100;
}

/**
 * The platform fee's arithmetic. The rate is a platform setting (app/server/platform-settings.server.ts,
 * ADR 065): `/become-seller` and `/pricing` show the one in force, and each sale is charged the one
 * in force when it was bought (recorded with the purchase).
 */
import { fromCents, percentOfCents, toCents } from '~/lib/money';

/** The platform's share of a sale of `gross` dollars at `percent`, rounded to the cent. */
export function platformFee(gross: number, percent: number): number {
  return fromCents(percentOfCents(toCents(gross), percent));
}

/** What the seller keeps of a sale of `gross` dollars: the rest, so fee and net add up to the sale. */
export function sellerNet(gross: number, percent: number): number {
  return fromCents(toCents(gross) - toCents(platformFee(gross, percent)));
}

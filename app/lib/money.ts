/**
 * Money. Amounts are dollars, as the database's `numeric(10,2)` columns give them; arithmetic on
 * them (sums, discounts, fees, tax) goes through whole cents, so it stays exact.
 */

/** Dollars to whole cents: 89.1 → 8910. */
export const toCents = (dollars: number) => Math.round(dollars * 100);

/** Whole cents to dollars: 8910 → 89.1. */
export const fromCents = (cents: number) => cents / 100;

/** `percent` per cent of `cents`, rounded to the cent. */
export const percentOfCents = (cents: number, percent: number) => Math.round((cents * percent) / 100);

/** The exact sum of dollar amounts. */
export function totalOf(amounts: readonly number[]): number {
  return fromCents(amounts.reduce((sum, amount) => sum + toCents(amount), 0));
}

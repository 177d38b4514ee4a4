/**
 * The figures of the analytics pages, worded and computed once: days are UTC days
 * (`YYYY-MM-DD`), conversion is completed sales per agent-page view.
 */
import { totalOf } from '~/lib/money';

/** How many days the analytics pages chart (today, UTC, included). */
export const ANALYTICS_DAYS = 30;

/** Sales per view (0.25 = 25 %); `null` without views (nothing to convert). */
export function conversionRate(sales: number, views: number): number | null {
  return views > 0 ? sales / views : null;
}

const PERCENT = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** `12.5%`, or `No views` when there is nothing to convert. */
export function formatConversion(rate: number | null): string {
  return rate === null ? 'No views' : PERCENT.format(rate);
}

const DAY_LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** `Nov 3` for the UTC day `2026-11-03`. */
export function formatDay(day: string): string {
  return DAY_LABEL.format(new Date(`${day}T00:00:00Z`));
}

const AVERAGE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** The mean of one figure over the days (0 without days). */
export function averageOf<T>(rows: readonly T[], figure: (row: T) => number): number {
  return rows.length ? sumOf(rows, figure) / rows.length : 0;
}

/** `3.4`: an average to one decimal. */
export function formatAverage(value: number): string {
  return AVERAGE.format(value);
}

/** The sum of one figure over the days (money to the cent). */
export function sumOf<T>(rows: readonly T[], figure: (row: T) => number, money = false): number {
  const values = rows.map(figure);
  return money ? totalOf(values) : values.reduce((sum, value) => sum + value, 0);
}

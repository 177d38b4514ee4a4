/** Money and date formatting for the dashboard, with Intl only (no date library). */
import { dateTimeFormat } from '~/lib/intl';

/** The name shown for a buyer or seller whose account was deleted (their records stay, anonymised). */
export const DELETED_ACCOUNT = 'Deleted account';
const MONEY = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** `$1,234.50`: always two decimals. */
export function formatMoney(amount: number): string {
  return MONEY.format(amount);
}

/** `Jan 5, 2025` on the user's calendar. */
export function formatDate(iso: string, timeZone = 'UTC'): string {
  return dateTimeFormat({ year: 'numeric', month: 'short', day: 'numeric', timeZone }).format(new Date(iso));
}

/** `Jan 5, 2025, 14:03` on the user's calendar and clock (a message's time). */
export function formatDateTime(iso: string, timeZone = 'UTC'): string {
  return dateTimeFormat({
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(new Date(iso));
}

/** `2026-11-23`: the calendar day of `iso` in `timeZone` (for CSV files). */
export function isoDay(iso: string, timeZone = 'UTC'): string {
  const parts = dateTimeFormat({ year: 'numeric', month: '2-digit', day: '2-digit', timeZone })
    .formatToParts(new Date(iso))
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** `2025-01` for the calendar month of `date` in `timeZone`, to compare months across zones. */
export function monthKey(date: Date, timeZone: string): string {
  const parts = dateTimeFormat({ year: 'numeric', month: '2-digit', timeZone }).formatToParts(date);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}`;
}

/** Percent change from `previous` to `current`, one decimal; `null` when there is no base. */
export function percentChange(previous: number, current: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `today`, `yesterday`, `3 days ago`, `2 months ago`, `last year`: how long ago `iso` was, by
 * whole days (stable between the server's render and the browser's within a day).
 */
export function formatAgo(iso: string, now: Date = new Date()): string {
  const days = Math.max(0, Math.floor((now.getTime() - new Date(iso).getTime()) / DAY_MS));
  if (days < 30) return RELATIVE.format(-days, 'day');
  if (days < 365) return RELATIVE.format(-Math.floor(days / 30), 'month');
  return RELATIVE.format(-Math.floor(days / 365), 'year');
}

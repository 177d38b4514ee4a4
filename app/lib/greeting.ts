/**
 * The overview's greeting by the user's local time (docs/product.md, "Dashboard"): 'Good morning'
 * before 12, 'Good afternoon' before 18, otherwise 'Good evening'.
 */
import { dateTimeFormat } from '~/lib/intl';
import type { Role } from '~/lib/permissions';

export type Greeting = 'Good morning' | 'Good afternoon' | 'Good evening';

export function greetingForHour(hour: number): Greeting {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** The hour (0–23) of `date` on the wall clock of `timeZone`. */
export function hourIn(date: Date, timeZone: string): number {
  const hour = dateTimeFormat({ hour: 'numeric', hourCycle: 'h23', timeZone }).format(date);
  return Number(hour) % 24;
}

export function greetingAt(date: Date, timeZone: string): Greeting {
  return greetingForHour(hourIn(date, timeZone));
}

/** The line under the greeting, worded for each account type. */
export const GREETING_SUBTITLE: Record<Role, string> = {
  buyer: 'Discover new AI agents and keep track of everything you own.',
  seller: 'Here is how your AI agents are selling. Ready to list something new?',
  admin: 'Here is what is happening across the marketplace today.',
};

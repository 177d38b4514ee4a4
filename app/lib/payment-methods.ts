/**
 * Saved payment methods, the pure part: how a card is named wherever it appears (Billing, the
 * label stored on each charge, the invoice) and how its expiry is written and read.
 */

/** "Visa •••• 4242": the one label of a saved card, on the page and stored with every charge. */
export function paymentMethodLabel(method: { brand: string; last4: string }): string {
  return `${method.brand} •••• ${method.last4}`;
}

/** "Visa ending in 4242": a saved card in words, where a sentence or a screen reader names it. */
export function paymentMethodName(method: { brand: string; last4: string }): string {
  return `${method.brand} ending in ${method.last4}`;
}

/** "08/2027". */
export function formatExpiry(expMonth: number, expYear: number): string {
  return `${String(expMonth).padStart(2, '0')}/${expYear}`;
}

/** "MM/YY" or "MM/YYYY" (spaces allowed around the slash) → month and four-digit year; null otherwise. */
export function parseExpiry(text: string): { expMonth: number; expYear: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return null;
  const expMonth = Number(match[1]);
  const expYear = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (expMonth < 1 || expMonth > 12 || expYear > 2200) return null;
  return { expMonth, expYear };
}

/** Whether a card's expiry (its whole last month) is still ahead of `now`, UTC. */
export function expiryIsFuture(expMonth: number, expYear: number, now: Date = new Date()): boolean {
  return expYear * 12 + (expMonth - 1) >= now.getUTCFullYear() * 12 + now.getUTCMonth();
}

/** Billing's forms on one saved card (its action tells them from the subscription's by `intent`). */
export const PAYMENT_METHOD_INTENTS = ['edit-expiry', 'make-default', 'remove'] as const;

export function isPaymentMethodIntent(intent: unknown): intent is (typeof PAYMENT_METHOD_INTENTS)[number] {
  return typeof intent === 'string' && (PAYMENT_METHOD_INTENTS as readonly string[]).includes(intent);
}

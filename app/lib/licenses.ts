/**
 * Licence keys (ADR 073): how a key is written and read, and the words the pages and the verify
 * endpoint use. Pure, shared by the server and the pages.
 *
 * A key is 32 hexadecimal characters in eight groups of four: the licence's public code (16, kept
 * in the database) and a check (16, an HMAC of the licence's id under the server's secret, never
 * stored). `normalizeLicenseKey` accepts it in any case, with or without the dashes and spaces.
 */

export const LICENSE_CODE_LENGTH = 16;
const KEY_PATTERN = /^[0-9A-F]{32}$/;

/** `9F3A1C2B…` → `9F3A-1C2B-…`, the form shown to buyers. */
export function formatLicenseKey(code: string, check: string): string {
  return `${code}${check}`.match(/.{1,4}/g)!.join('-');
}

/** A licence's public code as sellers see it: the first half of the buyer's key, then `…`. */
export function formatLicenseCode(code: string): string {
  return `${code.match(/.{1,4}/g)!.join('-')}-…`;
}

/** The key as typed or pasted, as its two halves; null when it cannot be a key at all. */
export function normalizeLicenseKey(input: string): { code: string; check: string } | null {
  const compact = input.replace(/[\s-]/g, '').toUpperCase();
  if (!KEY_PATTERN.test(compact)) return null;
  return { code: compact.slice(0, LICENSE_CODE_LENGTH), check: compact.slice(LICENSE_CODE_LENGTH) };
}

/** A licence as its buyer sees it in My Collection and on the invoice. */
export interface LicenseView {
  id: string;
  key: string;
  uses: number;
  /** The agent's activation limit; null = unlimited. */
  maxUses: number | null;
  /** Why the seller disabled it; null while it is enabled. */
  disabledReason: string | null;
  /** When the buyer may reset the activations again (on their calendar), or null: now. */
  resetAgainOn: string | null;
}

/** "2 of 5 activations used" / "3 activations" (no limit). */
export function activationsLine(uses: number, maxUses: number | null): string {
  if (maxUses === null) return uses === 1 ? '1 activation' : `${uses.toLocaleString('en-US')} activations`;
  return `${uses.toLocaleString('en-US')} of ${maxUses.toLocaleString('en-US')} activations used`;
}

export const LICENSE_MESSAGES = {
  reset: 'Your activations are reset.',
  resetTooSoon: 'Activations can be reset once a day. Please try again tomorrow.',
  disabled: 'The licence is disabled.',
  enabled: 'The licence is enabled again.',
  reasonRequired: 'Please say why the licence is disabled (at most 500 characters).',
  notFound: 'This licence does not exist.',
} as const;

/**
 * Becoming a seller: a display name (optional, 1 to 60 characters), a short pitch (up
 * to 500), a typical response time from a fixed list of hours and the seller terms, which must be
 * accepted. The limits are the database's (migration 20261126000100). Shared by the action and
 * the form's constraints.
 */
import { z } from 'zod';

export const MAX_DISPLAY_NAME_LENGTH = 60;
export const MAX_PITCH_LENGTH = 500;
export const RESPONSE_TIME_HOURS = [1, 2, 4, 8, 12, 24, 48, 72] as const;
export const DEFAULT_RESPONSE_TIME_HOURS = 24;

export const SELLER_MESSAGES = {
  displayNameTooLong: `Display name can be at most ${MAX_DISPLAY_NAME_LENGTH} characters.`,
  pitchTooLong: `Your pitch can be at most ${MAX_PITCH_LENGTH} characters.`,
  responseTime: 'Please choose a typical response time from the list.',
  terms: 'Please accept the seller terms to continue.',
  alreadySeller: 'You are already a seller.',
} as const;

/** "1 hour", "24 hours (1 day)": how the select names each choice. */
export function responseTimeLabel(hours: number): string {
  const base = hours === 1 ? '1 hour' : `${hours} hours`;
  if (hours < 24) return `Within ${base}`;
  const days = hours / 24;
  return `Within ${base} (${days === 1 ? '1 day' : `${days} days`})`;
}

/** Trimmed optional text: empty becomes null (stored as NULL). CRLF counted as one line break. */
function optionalText(max: number, message: string) {
  return z
    .string()
    .optional()
    .transform((value) => (value ?? '').replace(/\r\n?/g, '\n').trim())
    .pipe(z.string().max(max, message))
    .transform((value) => value || null);
}

export const BecomeSellerSchema = z.object({
  displayName: optionalText(MAX_DISPLAY_NAME_LENGTH, SELLER_MESSAGES.displayNameTooLong),
  pitch: optionalText(MAX_PITCH_LENGTH, SELLER_MESSAGES.pitchTooLong),
  responseTimeHours: z
    .string({ error: SELLER_MESSAGES.responseTime })
    .refine((value) => RESPONSE_TIME_HOURS.some((hours) => String(hours) === value), SELLER_MESSAGES.responseTime)
    .transform(Number),
  // A checkbox sends "on" when checked and nothing otherwise.
  acceptTerms: z.literal('on', { error: SELLER_MESSAGES.terms }),
});

export type BecomeSellerForm = z.infer<typeof BecomeSellerSchema>;

/**
 * The licence forms (ADR 073): the buyer's reset of their activations (My Collection), and the
 * seller's or an admin's switch on a sale's licence (Earnings, Disputes).
 */
import { z } from 'zod';
import { reasonSchema } from '~/schemas/reason';

const licenseId = z.guid('Choose a licence.');

export const ResetActivationsSchema = z.object({ intent: z.literal('reset-activations'), licenseId });

export const LicenseSwitchSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('disable-license'), licenseId, reason: reasonSchema }),
  z.object({ intent: z.literal('enable-license'), licenseId }),
]);

export const LICENSE_INTENTS = ['disable-license', 'enable-license'] as const;

/** `?license=<purchaseId>`: the sale whose licence form is open, if the value is an id. */
export function parseLicenseParam(value: string | null): string | null {
  const result = z.guid().safeParse(value);
  return result.success ? result.data.toLowerCase() : null;
}

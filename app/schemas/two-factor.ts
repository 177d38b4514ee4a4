/** The code forms of two-factor sign-in: the code page, enabling and disabling (ADR 016). */
import { z } from 'zod';
import { TWO_FACTOR_MESSAGES } from '~/lib/two-factor';

/** Six digits; spaces typed between groups ("123 456") are dropped. */
export const totpCode = z
  .string({ error: TWO_FACTOR_MESSAGES.codeFormat })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, TWO_FACTOR_MESSAGES.codeFormat));

export const TwoFactorSignInSchema = z.object({ code: totpCode, redirectTo: z.string().max(2048).optional() });

/** `/profile/two-factor`: start a setup, confirm it with a first code, or turn two-factor off with a current one. */
export const TwoFactorSettingsSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('enroll') }),
  z.object({
    intent: z.literal('confirm'),
    factorId: z.uuid(),
    enrollmentUri: z.string().max(1024).startsWith('otpauth://totp/'),
    code: totpCode,
  }),
  z.object({ intent: z.literal('disable'), code: totpCode }),
]);

/**
 * Two-factor sign-in (TOTP): the code page's address and the messages the code forms share.
 * ADR 016 explains how the assurance level (aal1 / aal2) is enforced.
 */
import { safeRedirectPath } from '~/lib/safe-redirect';

export const TWO_FACTOR_PATH = '/auth/two-factor';

/** The code page, then `returnTo` (same-origin paths only) once the code is accepted. */
export function twoFactorHref(returnTo?: string | null): string {
  const target = safeRedirectPath(returnTo, '/dashboard');
  return `${TWO_FACTOR_PATH}?${new URLSearchParams({ redirectTo: target })}`;
}

export const TWO_FACTOR_MESSAGES = {
  codeFormat: 'Enter the 6-digit code from your authenticator app.',
  wrongCode: 'That code is not right. Check your authenticator app and enter the code it shows now.',
  tooManyWrongCodes: 'Too many wrong codes. Please wait a few minutes and try again.',
  expired: 'This setup has expired. Please start again.',
  alreadyOn: 'Two-factor authentication is already on.',
  alreadyOff: 'Two-factor authentication is already off.',
  failed: 'Two-factor authentication is unavailable right now. Please try again.',
  enabled: 'Two-factor authentication is on. You will be asked for a code when you sign in.',
  disabled: 'Two-factor authentication is off.',
  verified: 'Signed in successfully.',
} as const;

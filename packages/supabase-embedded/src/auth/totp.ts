/**
 * RFC 6238 TOTP (SHA-1, 6 digits, 30 s steps) on @oslojs/otp, with the secret in base32 (RFC 4648,
 * upper case, no padding) as authenticator apps read it.
 */
import { randomBytes } from 'node:crypto';
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { generateHOTP, verifyHOTP } from '@oslojs/otp';

const STEP_SECONDS = 30;
const DIGITS = 6;

/** A new 160-bit secret, in base32. */
export const newTotpSecret = () => encodeBase32UpperCaseNoPadding(randomBytes(20));

const keyOf = (secret: string) => decodeBase32IgnorePadding(secret.toUpperCase());
const stepAt = (timeSeconds: number) => BigInt(Math.floor(timeSeconds / STEP_SECONDS));

/** The code of the step that `timeSeconds` (now by default) falls in. */
export function totpCode(secret: string, timeSeconds = Date.now() / 1000): string {
  return generateHOTP(keyOf(secret), stepAt(timeSeconds), DIGITS);
}

/** Accepts the code of the current step or of one step before or after (a clock 30 s off). */
export function verifyTotp(secret: string, code: string, timeSeconds = Date.now() / 1000): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const key = keyOf(secret);
  const step = stepAt(timeSeconds);
  return [-1n, 0n, 1n].some((drift) => verifyHOTP(key, step + drift, DIGITS, code));
}

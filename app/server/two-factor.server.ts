/**
 * Two-factor sign-in with TOTP through the Auth service's MFA factors, with the same supabase-js
 * calls hosted Supabase answers (`mfa.enroll`, `challengeAndVerify`, `unenroll`, `listFactors`).
 * A session is fully signed in only at aal2 once the user has a verified factor: the viewer
 * middleware asks `needsSecondFactor` (docs/decisions/016-two-factor-sign-in.md).
 */
import type { Submission } from '@conform-to/react';
import type { User } from '@supabase/supabase-js';
import qrcode from 'qrcode-generator';
import { TWO_FACTOR_MESSAGES } from '~/lib/two-factor';
import { formError } from '~/server/forms.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { secondsUntilReset, type FixedWindows } from '@agentmarket/supabase-embedded/shared';

/** Signed in with a password (or Google), but the code is still to come: not signed in for the app. */
export interface PendingSecondFactor {
  id: string;
  email: string;
}

const hasVerifiedFactor = (user: Pick<User, 'factors'>) =>
  (user.factors ?? []).some((factor) => factor.status === 'verified');

/** The claims of an access token that the Auth service has just accepted (getUser); {} if unreadable. */
export function acceptedTokenClaims(accessToken: string): Record<string, unknown> {
  try {
    const payload: unknown = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString());
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The `aal` claim of an access token that the Auth service has just accepted (getUser). */
function assuranceLevel(accessToken: string): string | null {
  const { aal } = acceptedTokenClaims(accessToken);
  return typeof aal === 'string' ? aal : null;
}

/**
 * The sign-in methods (`amr`) of the session whose access token the Auth service has just
 * accepted, e.g. `['password', 'totp']` or `['recovery']`.
 */
export function sessionMethods(accessToken: string): string[] {
  const { amr } = acceptedTokenClaims(accessToken);
  if (!Array.isArray(amr)) return [];
  return amr.flatMap((entry: unknown) => {
    const method = typeof entry === 'string' ? entry : (entry as { method?: unknown } | null)?.method;
    return typeof method === 'string' ? [method] : [];
  });
}

/**
 * What `mfa.getAuthenticatorAssuranceLevel()` says as `currentLevel: 'aal1', nextLevel: 'aal2'`,
 * from the user `getUser(accessToken)` returned, without asking the Auth service again.
 */
export function needsSecondFactor(accessToken: string, user: Pick<User, 'factors'>): boolean {
  return hasVerifiedFactor(user) && assuranceLevel(accessToken) !== 'aal2';
}

/** After a password or Google sign-in: the user still has to give a code. */
export const asksForCode = (user: Pick<User, 'factors'> | null | undefined) => Boolean(user && hasVerifiedFactor(user));

export const WRONG_CODES_ALLOWED = 5;
export const WRONG_CODE_WINDOW_MS = 5 * 60_000;

export interface WrongCodeLimit {
  /** Seconds until `userId` may try again, or 0. */
  retryAfterSeconds(windows: FixedWindows, userId: string): Promise<number>;
  fail(windows: FixedWindows, userId: string): Promise<void>;
}

/**
 * Wrong codes per user, whatever the address (an attacker who has the password tries codes
 * from many) and whichever app server they reach (the windows are the database's,
 * rate-limit.server.ts): after `WRONG_CODES_ALLOWED` in a window, every code is refused until it
 * ends. The Auth service's own limit counts verifications per client address.
 */
export const wrongCodes: WrongCodeLimit = {
  async retryAfterSeconds(windows, userId) {
    const window = await windows.peek(`wrong-codes:${userId}`);
    return window && window.count >= WRONG_CODES_ALLOWED ? secondsUntilReset(window, windows.clock) : 0;
  },
  async fail(windows, userId) {
    await windows.add(`wrong-codes:${userId}`, WRONG_CODE_WINDOW_MS);
  },
};

export type TwoFactorResult =
  { ok: true } | { ok: false; status: 409 | 422 | 429 | 503; message: string; retryAfterSeconds?: number };

const failed = (status: 409 | 422 | 503, message: string): TwoFactorResult => ({ ok: false, status, message });

/** One code against one factor: the session becomes aal2 (cookies on the response) or the answer says why not. */
export async function checkCode(
  client: AppSupabaseClient,
  windows: FixedWindows,
  userId: string,
  factorId: string,
  code: string,
): Promise<TwoFactorResult> {
  const wait = await wrongCodes.retryAfterSeconds(windows, userId);
  if (wait > 0)
    return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyWrongCodes, retryAfterSeconds: wait };
  const { error } = await client.auth.mfa.challengeAndVerify({ factorId, code });
  if (!error) return { ok: true };
  if (error.code === 'mfa_verification_failed') {
    await wrongCodes.fail(windows, userId);
    return failed(422, TWO_FACTOR_MESSAGES.wrongCode);
  }
  if (error.status === 429) return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyWrongCodes };
  if (error.code === 'mfa_factor_not_found' || error.code === 'mfa_challenge_expired' || error.status === 404) {
    return failed(409, TWO_FACTOR_MESSAGES.expired);
  }
  console.error('Two-factor verification failed:', error.code, error.message);
  return failed(503, TWO_FACTOR_MESSAGES.failed);
}

/** The form's answer to a refused code (or step): its message and status, `Retry-After` when limited. */
export function refusal(
  submission: Submission<unknown, string[], unknown>,
  result: Exclude<TwoFactorResult, { ok: true }>,
) {
  const headers = result.retryAfterSeconds ? { 'Retry-After': String(result.retryAfterSeconds) } : undefined;
  return formError(submission, { message: result.message, status: result.status, headers });
}

/** The user's verified TOTP factor, as `mfa.listFactors()` lists it (null when two-factor is off). */
export async function verifiedTotpFactor(client: AppSupabaseClient): Promise<{ id: string } | null> {
  const { data, error } = await client.auth.mfa.listFactors();
  if (error) throw error;
  return data.totp[0] ?? null;
}

/** A QR code as an SVG path (one unit per module), drawn by the page: no markup from strings. */
export interface QrCode {
  size: number;
  path: string;
}

export function qrCodeOf(text: string): QrCode {
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  const size = code.getModuleCount();
  let path = '';
  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size; col += 1) {
      if (!code.isDark(row, col)) continue;
      let run = 1;
      while (col + run < size && code.isDark(row, col + run)) run += 1;
      path += `M${col} ${row}h${run}v1h-${run}z`;
      col += run - 1;
    }
  }
  return { size, path };
}

/** What the setup page shows: the QR code of the `otpauth://` URI and its secret, to type in instead. */
export interface TotpSetup {
  factorId: string;
  uri: string;
  secret: string;
  qr: QrCode;
}

/** The setup again from the URI the confirm form carried back (null if it is not a TOTP URI with a secret). */
export function setupFromUri(factorId: string, uri: string): TotpSetup | null {
  try {
    const url = new URL(uri);
    const secret = url.searchParams.get('secret') ?? '';
    if (url.protocol !== 'otpauth:' || !/^[A-Z2-7]{16,128}=*$/.test(secret)) return null;
    return { factorId, uri, secret, qr: qrCodeOf(uri) };
  } catch {
    return null;
  }
}

export const TOTP_ISSUER = 'AgentMarket';

/**
 * Starts a setup: a factor left unverified by an earlier attempt goes first (its secret was never
 * confirmed), then a new TOTP factor is enrolled.
 */
export async function startTotpSetup(
  client: AppSupabaseClient,
): Promise<{ ok: true; setup: TotpSetup } | Exclude<TwoFactorResult, { ok: true }>> {
  const listed = await client.auth.mfa.listFactors();
  if (listed.error) return logFailure('list', listed.error);
  if (listed.data.totp.length > 0) return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.alreadyOn };
  for (const factor of listed.data.all) {
    if (factor.factor_type === 'totp' && factor.status === 'unverified') {
      const { error } = await client.auth.mfa.unenroll({ factorId: factor.id });
      if (error) return logFailure('unenroll', error);
    }
  }
  const { data, error } = await client.auth.mfa.enroll({
    factorType: 'totp',
    issuer: TOTP_ISSUER,
    friendlyName: 'Authenticator app',
  });
  if (error) return logFailure('enroll', error);
  const setup = setupFromUri(data.id, data.totp.uri);
  if (!setup) return logFailure('enroll', new Error('unexpected otpauth URI'));
  return { ok: true, setup };
}

function logFailure(step: string, error: { message: string }): { ok: false; status: 503; message: string } {
  console.error(`Two-factor ${step} failed:`, error.message);
  return { ok: false, status: 503, message: TWO_FACTOR_MESSAGES.failed };
}

/** Turns two-factor off after a current code. */
export async function disableTotp(
  client: AppSupabaseClient,
  windows: FixedWindows,
  userId: string,
  code: string,
): Promise<TwoFactorResult> {
  const factor = await verifiedTotpFactor(client).catch((error: Error) => error);
  if (factor instanceof Error) return logFailure('list', factor);
  if (!factor) return failed(409, TWO_FACTOR_MESSAGES.alreadyOff);
  const check = await checkCode(client, windows, userId, factor.id, code);
  if (!check.ok) return check;
  const { error } = await client.auth.mfa.unenroll({ factorId: factor.id });
  if (error) return logFailure('unenroll', error);
  return { ok: true };
}

/**
 * `user_settings.two_factor_auth` mirrors the Auth factors for the pages and the data export;
 * the factors alone decide sign-in.
 */
export async function mirrorTwoFactorSetting(client: AppSupabaseClient, userId: string, on: boolean): Promise<void> {
  const { error } = await client
    .from('user_settings')
    .update({ two_factor_auth: on, updated_at: new Date().toISOString() })
    .eq('user_id', userId);
  if (error) console.error('Two-factor setting not mirrored:', error.code, error.message);
}

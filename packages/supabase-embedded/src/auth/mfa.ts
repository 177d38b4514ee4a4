/** MFA factors and challenges in `auth.mfa_factors` / `auth.mfa_challenges`. */
import qrcode from 'qrcode-generator';
import type { Queryable } from './users';

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: 'unverified' | 'verified';
  secret: string;
  last_challenged_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
}

export interface ChallengeRow {
  id: string;
  factor_id: string;
  created_at: Date;
  verified_at: Date | null;
}

/** Challenges live five minutes, like GoTrue's default `MFA_CHALLENGE_EXPIRY_DURATION`. */
export const CHALLENGE_EXPIRY_SECONDS = 300;

export async function listFactors(db: Queryable, userId: string): Promise<FactorRow[]> {
  return (
    await db.query<FactorRow>('select * from auth.mfa_factors where user_id = $1 order by created_at, id', [userId])
  ).rows;
}

/** Whether the user has finished enrolling a factor (then aal2 guards the account's changes). */
export async function hasVerifiedFactor(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query(`select 1 from auth.mfa_factors where user_id = $1 and status = 'verified' limit 1`, [
    userId,
  ]);
  return rows.length > 0;
}

export async function getFactor(db: Queryable, userId: string, factorId: string): Promise<FactorRow | null> {
  return (
    (await db.query<FactorRow>('select * from auth.mfa_factors where id = $1 and user_id = $2', [factorId, userId]))
      .rows[0] ?? null
  );
}

export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
}

/**
 * The enrolment picture, as GoTrue sends it: an SVG QR code of the `otpauth://` URI, for an
 * authenticator app to scan (supabase-js turns it into a data URL).
 */
export function qrCodeSvg(uri: string): string {
  const code = qrcode(0, 'M');
  code.addData(uri);
  code.make();
  return code.createSvgTag({ cellSize: 4, margin: 4, scalable: true });
}

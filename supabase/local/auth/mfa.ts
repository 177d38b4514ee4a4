/** MFA factors and challenges in `auth.mfa_factors` / `auth.mfa_challenges`. */
import { escapeHtml } from './http';
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
 * The enrolment picture. The stand-in ships no QR encoder: the SVG shows the secret as text so a
 * person can type it into an authenticator app (the `uri` is there for apps that accept it).
 */
export function secretSvg(issuer: string, account: string, secret: string): string {
  const groups = secret.match(/.{1,4}/g)?.join(' ') ?? secret;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120" viewBox="0 0 320 120">` +
    `<rect width="320" height="120" fill="#fff" stroke="#111"/>` +
    `<text x="160" y="36" font-family="monospace" font-size="13" text-anchor="middle">${escapeHtml(`${issuer}: ${account}`)}</text>` +
    `<text x="160" y="70" font-family="monospace" font-size="14" text-anchor="middle">${escapeHtml(groups)}</text>` +
    `<text x="160" y="100" font-family="sans-serif" font-size="11" text-anchor="middle">Enter this key in your authenticator app</text>` +
    `</svg>`
  );
}

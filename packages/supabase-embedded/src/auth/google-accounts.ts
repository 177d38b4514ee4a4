/**
 * What the OAuth callback does with a Google profile: same subject →
 * that user (profile refreshed); a verified email of an existing account → identity linked (an
 * unverified one is refused);
 * else a new user with the profile as `raw_user_meta_data`.
 */
import { randomInt } from 'node:crypto';
import { AuthError, unprocessable } from './errors';
import type { KnownGoogleAccount } from './google-page';
import type { AuthService } from './service';
import type { IdentityRow, Json } from './users';
import { addProvider, confirmEmail, createUser, findUserByEmail, mergeUserMetadata } from './users';

export const GOOGLE_ISSUER = 'https://www.googleapis.com/userinfo/v2/me';

export function newGoogleSubject(): string {
  return String(randomInt(1, 10)) + Array.from({ length: 20 }, () => randomInt(10)).join('');
}

export function googleProfile(service: AuthService, subject: string, email: string, name: string): Json {
  // A path on the app's own origin, whichever origin the profile is later shown on (and 'self' in
  // the Content-Security-Policy).
  const picture = `${new URL(service.authUrl()).pathname}/_local/avatar?name=${encodeURIComponent(name)}`;
  return {
    iss: GOOGLE_ISSUER,
    sub: subject,
    name,
    full_name: name,
    email,
    email_verified: true,
    phone_verified: false,
    picture,
    avatar_url: picture,
    provider_id: subject,
  };
}

/** The stand-in Google accounts among `subjects` (this browser's), most recently used first. */
export async function listGoogleAccounts(service: AuthService, subjects: string[]): Promise<KnownGoogleAccount[]> {
  if (!subjects.length) return [];
  const rows = (
    await service.db.query<IdentityRow>(
      `select * from auth.identities where provider = 'google' and provider_id = any($1::text[])
        order by last_sign_in_at desc nulls last, created_at desc limit 50`,
      [subjects],
    )
  ).rows;
  return rows.map((row) => ({
    subject: row.provider_id,
    name: String(row.identity_data.full_name ?? row.identity_data.name ?? row.email ?? ''),
    email: String(row.identity_data.email ?? ''),
    picture: String(row.identity_data.picture ?? ''),
  }));
}

export async function findGoogleIdentity(service: AuthService, subject: string): Promise<IdentityRow | null> {
  const result = await service.db.query<IdentityRow>(
    `select * from auth.identities where provider = 'google' and provider_id = $1`,
    [subject],
  );
  return result.rows[0] ?? null;
}

export async function findGoogleIdentityByEmail(service: AuthService, email: string): Promise<IdentityRow | null> {
  const result = await service.db.query<IdentityRow>(
    `select * from auth.identities where provider = 'google' and email = lower($1)`,
    [email],
  );
  return result.rows[0] ?? null;
}

/** Returns the id of the user the profile signs in as. */
export async function signInWithGoogleProfile(service: AuthService, profile: Json): Promise<string> {
  const { db } = service;
  const subject = String(profile.sub);
  const email = String(profile.email).toLowerCase();
  const identity = await findGoogleIdentity(service, subject);
  if (identity) {
    await db.query(`update auth.identities set identity_data = $2, updated_at = now() where id = $1`, [
      identity.id,
      profile,
    ]);
    await mergeUserMetadata(db, identity.user_id, profile);
    return identity.user_id;
  }
  const existing = await findUserByEmail(db, email);
  if (existing && profile.email_verified !== true) {
    // Linking on an email Google has not verified would hand the account to whoever typed it.
    throw new AuthError(
      422,
      'email_exists',
      'An account with this email already exists, and Google has not verified the email, so it was not linked.',
    );
  }
  if (existing) {
    await db.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       values ($1, $2, $3, 'google', now(), now(), now())`,
      [subject, existing.id, profile],
    );
    await addProvider(db, existing.id, 'google');
    await mergeUserMetadata(db, existing.id, profile);
    if (!existing.email_confirmed_at) await confirmEmail(db, existing.id);
    return existing.id;
  }
  if (!service.config.enableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  const user = await createUser(db, {
    email,
    userMetadata: profile,
    identityData: profile,
    provider: 'google',
    providerSubject: subject,
    confirm: true,
  });
  return user.id;
}

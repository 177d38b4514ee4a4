/** Redeeming email tokens: by token hash or by email + one-time code. */
import { AuthError, forbidden } from './errors';
import { tokenHash } from './mailer';
import type { AuthService } from './service';
import type { UserRow } from './users';
import { confirmEmail, getUser, isBanned, setEmail } from './users';

export const VERIFY_TYPES = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change',
  'email',
  'sms',
  'phone_change',
] as const;
export type VerifyType = (typeof VERIFY_TYPES)[number];

type Column = 'confirmation_token' | 'recovery_token' | 'email_change_token_new';

const SENT_AT: Record<Column, string> = {
  confirmation_token: 'confirmation_sent_at',
  recovery_token: 'recovery_sent_at',
  email_change_token_new: 'email_change_sent_at',
};

function columnsFor(type: VerifyType): Column[] {
  switch (type) {
    case 'signup':
    case 'invite':
      return ['confirmation_token'];
    case 'recovery':
    case 'magiclink':
      return ['recovery_token'];
    case 'email':
      return ['confirmation_token', 'recovery_token'];
    case 'email_change':
      return ['email_change_token_new'];
    default:
      return [];
  }
}

export type TokenLookup = { tokenHash: string } | { email: string; otp: string };

export interface Verified {
  user: UserRow;
  /** The token was issued for a PKCE flow (`pkce_` prefix). */
  pkce: boolean;
}

/** Finds the user holding a valid token of `type`, applies the confirmation, clears the token. */
export async function redeemEmailToken(service: AuthService, type: VerifyType, lookup: TokenLookup): Promise<Verified> {
  const { db, config } = service;
  const failure =
    'tokenHash' in lookup
      ? forbidden('otp_expired', 'Email link is invalid or has expired')
      : forbidden('otp_expired', 'Token has expired or is invalid');
  for (const column of columnsFor(type)) {
    let user: UserRow | undefined;
    let stored = '';
    if ('tokenHash' in lookup) {
      if (!lookup.tokenHash) break;
      user = (await db.query<UserRow>(`select * from auth.users where ${column} = $1`, [lookup.tokenHash])).rows[0];
      stored = lookup.tokenHash;
    } else {
      const hash = tokenHash(lookup.email, lookup.otp);
      const addressColumn = column === 'email_change_token_new' ? 'email_change' : 'email';
      user = (
        await db.query<UserRow>(
          `select * from auth.users where lower(${addressColumn}) = lower($1) and ${column} in ($2::text, 'pkce_' || $2::text)`,
          [lookup.email, hash],
        )
      ).rows[0];
      stored = user ? String(user[column]) : '';
    }
    if (!user) continue;
    // As GoTrue: a banned user's link or code is refused before it is spent.
    if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
    const sentAt = user[SENT_AT[column] as keyof UserRow] as Date | null;
    if (!sentAt || Date.now() - sentAt.getTime() > config.otpExpiry * 1000) continue;
    await applyVerification(service, user, column);
    const updated = await getUser(db, user.id);
    if (!updated) throw failure;
    return { user: updated, pkce: stored.startsWith('pkce_') };
  }
  throw failure;
}

async function applyVerification(service: AuthService, user: UserRow, column: Column): Promise<void> {
  const { db } = service;
  if (column === 'confirmation_token') {
    await confirmEmail(db, user.id);
  } else if (column === 'recovery_token') {
    await db.query(`update auth.users set recovery_token = '', updated_at = now() where id = $1`, [user.id]);
    if (!user.email_confirmed_at) await confirmEmail(db, user.id);
  } else {
    if (!user.email_change) throw new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
    await setEmail(db, user.id, user.email_change);
    await confirmEmail(db, user.id);
  }
}

/**
 * Email-token flows: one-time codes, token hashes, the per-user send
 * frequency, and the message written to the outbox.
 */
import { createHash, randomInt } from 'node:crypto';
import { AuthError } from './errors';
import { escapeHtml } from './http';
import type { EmailType } from './outbox';
import { storeEmail } from './outbox';
import type { AuthService } from './service';
import type { Queryable, UserRow } from './users';

const COLUMNS: Record<EmailType, { token: string; sentAt: keyof UserRow & string }> = {
  signup: { token: 'confirmation_token', sentAt: 'confirmation_sent_at' },
  invite: { token: 'confirmation_token', sentAt: 'confirmation_sent_at' },
  recovery: { token: 'recovery_token', sentAt: 'recovery_sent_at' },
  magiclink: { token: 'recovery_token', sentAt: 'recovery_sent_at' },
  email_change: { token: 'email_change_token_new', sentAt: 'email_change_sent_at' },
  reauthentication: { token: 'reauthentication_token', sentAt: 'reauthentication_sent_at' },
};

export const tokenHash = (email: string, otp: string) =>
  createHash('sha224')
    .update(email.toLowerCase() + otp)
    .digest('hex');

export interface IssuedToken {
  otp: string;
  /** Stored value and the `token_hash` of links: `pkce_<hash>` for PKCE flows. */
  token: string;
}

/** Creates a code for `email`, stores its hash in the user's column for `type` and stamps `*_sent_at`. */
export async function issueEmailToken(
  db: Queryable,
  user: UserRow,
  type: EmailType,
  email: string,
  pkce: boolean,
  length: number,
): Promise<IssuedToken> {
  const otp = Array.from({ length }, () => randomInt(10)).join('');
  const token = (pkce ? 'pkce_' : '') + tokenHash(email, otp);
  const { token: column, sentAt } = COLUMNS[type];
  await db.query(`update auth.users set ${column} = $2, ${sentAt} = now() where id = $1`, [user.id, token]);
  return { otp, token };
}

/** 429 when the previous email of this kind went out less than `max_frequency` ago. */
export function assertCanSend(service: AuthService, user: UserRow, type: EmailType): void {
  const sentAt = user[COLUMNS[type].sentAt] as Date | null;
  if (!sentAt) return;
  const wait = Math.ceil(service.config.emailMaxFrequency - (Date.now() - sentAt.getTime()) / 1000);
  if (wait > 0) {
    throw new AuthError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${wait} seconds.`,
    );
  }
}

/**
 * What a send to an account that is sent nothing (a banned user) still does: the same
 * per-account frequency check and the same record of a send, so the answers (200, then 429 too
 * soon after) do not tell it apart from an active account.
 */
export async function withholdEmail(service: AuthService, user: UserRow, type: EmailType): Promise<void> {
  assertCanSend(service, user, type);
  await service.db.query(`update auth.users set ${COLUMNS[type].sentAt} = now() where id = $1`, [user.id]);
}

export function verifyLink(service: AuthService, token: string, type: EmailType, redirectTo: string): string {
  const query = new URLSearchParams({ token, type, redirect_to: redirectTo });
  return `${service.authUrl()}/verify?${query.toString()}`;
}

const SUBJECTS: Record<EmailType, string> = {
  signup: 'Confirm Your Signup',
  invite: 'You have been invited',
  recovery: 'Reset Your Password',
  magiclink: 'Your Magic Link',
  email_change: 'Confirm Email Change',
  reauthentication: 'Confirm reauthentication',
};

const INTROS: Record<EmailType, string> = {
  signup: 'Follow this link to confirm your user:',
  invite: 'You have been invited to create a user. Follow this link to accept the invite:',
  recovery: 'Follow this link to reset the password for your user:',
  magiclink: 'Follow this link to login:',
  email_change: 'Follow this link to confirm the update of your email:',
  reauthentication: 'Enter this code to confirm it is you:',
};

/** Issues a token, checks the frequency limit, writes the email to the outbox and delivers it. */
export async function sendEmail(
  service: AuthService,
  user: UserRow,
  type: EmailType,
  options: { redirectTo: string; pkce: boolean; to?: string },
): Promise<void> {
  assertCanSend(service, user, type);
  const to = options.to ?? user.email ?? '';
  const { otp, token } = await issueEmailToken(service.db, user, type, to, options.pkce, service.config.otpLength);
  // The reauthentication email carries only a code, as GoTrue's: it is typed into the app.
  const link = type === 'reauthentication' ? '' : verifyLink(service, token, type, options.redirectTo);
  const text = link
    ? `${SUBJECTS[type]}\n\n${INTROS[type]}\n${link}\n\nAlternatively, enter the code: ${otp}\n`
    : `${SUBJECTS[type]}\n\n${INTROS[type]} ${otp}\n`;
  const html = link
    ? `<h2>${SUBJECTS[type]}</h2><p>${INTROS[type]}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(SUBJECTS[type])}</a></p><p>Alternatively, enter the code: ${otp}</p>`
    : `<h2>${SUBJECTS[type]}</h2><p>${INTROS[type]} ${otp}</p>`;
  const email = {
    to,
    subject: SUBJECTS[type],
    type,
    text,
    html,
    link,
    tokenHash: token,
    otp,
    redirectTo: options.redirectTo,
  };
  await storeEmail(service.db, email);
  await service.mail.send(email);
}

/**
 * The local outbox: every email the stand-in "sends" is stored in `auth.local_outbox` so that
 * developers (the `/auth/v1/_local/outbox` page) and tests (`readOutbox`) can follow the links.
 */
import type { Queryable } from './users';

export type EmailType = 'signup' | 'recovery' | 'magiclink' | 'invite' | 'email_change' | 'reauthentication';
/** The app's own emails, handed to `POST /admin/outbox` (see routes/misc.ts); no link or code. */
export const PRODUCT_EMAIL_TYPES = ['purchase_receipt', 'sale_notice', 'message_notice', 'update_notice'] as const;
export type ProductEmailType = (typeof PRODUCT_EMAIL_TYPES)[number];

export interface OutboxEmail {
  id: number;
  to: string;
  subject: string;
  type: EmailType | ProductEmailType;
  text: string;
  html: string;
  /** The verification link (`<auth>/verify?token=…&type=…&redirect_to=…`); '' for a code-only email. */
  link: string;
  /** What `verifyOtp({ type, token_hash })` takes (`pkce_`-prefixed for PKCE flows). */
  tokenHash: string;
  /** The one-time code for `verifyOtp({ email, token, type })`. */
  otp: string;
  redirectTo: string | null;
  createdAt: string;
}

interface OutboxRow {
  id: number;
  to_email: string;
  subject: string;
  email_type: EmailType | ProductEmailType;
  text_body: string;
  html_body: string;
  link: string;
  token_hash: string;
  otp: string;
  redirect_to: string | null;
  created_at: Date;
}

export type NewEmail = Omit<OutboxEmail, 'id' | 'createdAt'>;

export async function storeEmail(db: Queryable, email: NewEmail): Promise<void> {
  await db.query(
    `insert into auth.local_outbox (to_email, subject, email_type, text_body, html_body, link, token_hash, otp, redirect_to)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      email.to,
      email.subject,
      email.type,
      email.text,
      email.html,
      email.link,
      email.tokenHash,
      email.otp,
      email.redirectTo,
    ],
  );
}

/** Emails, newest first; optionally only those sent to `to` (case-insensitive). */
export async function readOutbox(db: Queryable, options: { to?: string; limit?: number } = {}): Promise<OutboxEmail[]> {
  const result = await db.query<OutboxRow>(
    `select * from auth.local_outbox where ($1::text is null or lower(to_email) = lower($1::text))
      order by id desc limit $2`,
    [options.to ?? null, options.limit ?? 200],
  );
  return result.rows.map((row) => ({
    id: Number(row.id),
    to: row.to_email,
    subject: row.subject,
    type: row.email_type,
    text: row.text_body,
    html: row.html_body,
    link: row.link,
    tokenHash: row.token_hash,
    otp: row.otp,
    redirectTo: row.redirect_to,
    createdAt: row.created_at.toISOString(),
  }));
}

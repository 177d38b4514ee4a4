/**
 * How an email leaves the embedded Auth service. Every email is also kept in `auth.local_outbox`
 * (admins read it on /dashboard/system; tests read it with `readOutbox`); this module delivers it:
 * through SMTP with nodemailer when configured, else as one line in the server log, so the
 * operator of a deployment without a mail server can still help a user.
 */
import nodemailer from 'nodemailer';
import type { SmtpConfig } from './config';
import type { NewEmail } from './outbox';

export interface MailDelivery {
  /** `smtp`: sent to the recipient; `log`: written to the server log only. */
  readonly kind: 'smtp' | 'log';
  /** Never throws: a failed delivery is logged (the email stays in the admin outbox). */
  send(email: NewEmail): Promise<void>;
  close(): void;
}

/** Seconds before a silent SMTP server is given up on, so a sign-up never hangs for minutes. */
const SMTP_TIMEOUT_MS = 15_000;

export function createMailDelivery(smtp: SmtpConfig | null, log: (line: string) => void = console.log): MailDelivery {
  if (!smtp) {
    return {
      kind: 'log',
      async send(email) {
        log(`[auth] email not sent (no SMTP configured): to=${email.to} subject="${email.subject}" link=${email.link}`);
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport({
    url: smtp.url,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    kind: 'smtp',
    async send(email) {
      try {
        await transport.sendMail({
          from: smtp.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
        });
      } catch (error) {
        // The recipient is told to check their inbox either way; the operator sees why nothing came.
        console.error(`[auth] SMTP delivery to ${email.to} failed:`, (error as Error).message);
      }
    },
    close() {
      transport.close();
    },
  };
}

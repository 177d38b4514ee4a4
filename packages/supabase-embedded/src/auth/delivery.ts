/**
 * How an email leaves the embedded Auth service. Every email is also kept in `auth.local_outbox`
 * (admins read it on /dashboard/system; tests read it with `readOutbox`); this module delivers it:
 * through SMTP with nodemailer when configured, else as one line in the server log, so the
 * operator of a deployment without a mail server can still help a user.
 *
 * `createSmtpSender` is the one SMTP piece of the project: the app's own emails (receipts, sale
 * notices; app/server/notifications.server.ts) go through it too when SMTP_URL is set.
 */
import type { Transporter } from 'nodemailer';
import type { SmtpConfig } from './config';
import type { NewEmail } from './outbox';

export interface MailDelivery {
  /** `smtp`: sent to the recipient; `log`: written to the server log only. */
  readonly kind: 'smtp' | 'log';
  /**
   * Never throws: a failed delivery is logged (the email stays in the admin outbox). Through SMTP
   * it only starts the delivery: the answer to the request never waits for the mail server, so
   * how long `/recover` or `/otp` takes tells nothing about whether the address has an account.
   */
  send(email: NewEmail): Promise<void>;
  close(): void;
}

export interface SmtpMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SmtpSender {
  /** Never throws: a failed delivery is logged under `label`, and the answer is false. */
  send(message: SmtpMessage): Promise<boolean>;
  close(): void;
}

/** Seconds before a silent SMTP server is given up on, so a sign-up never hangs for minutes. */
const SMTP_TIMEOUT_MS = 15_000;

/** Sends through the SMTP server of `smtp.url`, from `smtp.from`; `label` prefixes its log lines. */
export function createSmtpSender(smtp: SmtpConfig, label: string): SmtpSender {
  // nodemailer is loaded on the first email, not at start-up (a start pays for every module).
  let transport: Promise<Transporter> | null = null;
  const connect = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtp.url,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      }),
    ));
  return {
    async send(message) {
      try {
        await (await connect()).sendMail({ from: smtp.from, ...message });
        return true;
      } catch (error) {
        // The user is told the email is on its way either way; the operator sees why nothing came.
        console.error(`[${label}] SMTP delivery to ${message.to} failed:`, (error as Error).message);
        return false;
      }
    },
    close() {
      void transport?.then((opened) => opened.close());
    },
  };
}

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
  const sender = createSmtpSender(smtp, 'auth');
  /** Deliveries under way: closing waits for them before it closes the connection. */
  const pending = new Set<Promise<boolean>>();
  return {
    kind: 'smtp',
    async send(email) {
      const delivery = sender.send({ to: email.to, subject: email.subject, text: email.text, html: email.html });
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    },
    close: () => void Promise.allSettled(pending).then(() => sender.close()),
  };
}

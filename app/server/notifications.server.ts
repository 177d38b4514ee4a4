/**
 * The product's own emails, sent as the notification preferences decide: when a purchase completes, a receipt to the buyer and a sale notice to the seller,
 * each only when that user keeps "Email notifications" on (`user_settings.email_notifications`).
 * The other toggles have nothing to gate yet: no marketing email or weekly digest is sent, and
 * push notifications do not exist.
 *
 * Delivery, first match (`productMailRoute`):
 * - `smtp`: SMTP_URL is set. The app sends its emails itself through the project's one SMTP
 *   piece (`createSmtpSender`, packages/supabase-embedded/src/auth/delivery.ts), from MAIL_FROM (else SMTP_FROM).
 *   Hosted or embedded alike; the embedded outbox then holds the Auth emails only.
 * - `outbox`: the embedded backend without SMTP_URL: its service-role-only
 *   `POST /auth/v1/admin/outbox` keeps the email in the outbox (/dashboard/system) and delivers
 *   it as the Auth emails go (`[auth.email.smtp]` of config.toml, else the server log).
 * - `off`: hosted Supabase without SMTP_URL (hosted Supabase has no API to send an app's own
 *   email): each email is only logged, and the start-up log says so once (`productMailNotice`).
 */
import type { SupabaseConnection } from '~/context';
import { formatMoney } from '~/lib/dashboard-format';
import { env, type Env } from '~/server/env.server';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { createSmtpSender, type SmtpConfig, type SmtpSender } from '@agentmarket/supabase-embedded/shared';

export type ProductEmailType = 'purchase_receipt' | 'sale_notice' | 'message_notice' | 'update_notice';

export interface ProductEmail {
  to: string;
  subject: string;
  text: string;
  type: ProductEmailType;
}

export interface ProductMailer {
  /** The app's address, for links in the emails. */
  readonly origin: string;
  /** Never throws: a failed delivery is logged, the action that sent it stands. */
  send(email: ProductEmail): Promise<void>;
}

export type ProductMailRoute = 'smtp' | 'outbox' | 'off';

/** The SMTP server of the app's own emails: SMTP_URL, from MAIL_FROM (else SMTP_FROM); null = none. */
export function productSmtp(source: Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'SMTP_FROM'> = env): SmtpConfig | null {
  const from = source.MAIL_FROM ?? source.SMTP_FROM;
  return source.SMTP_URL && from ? { url: source.SMTP_URL, from } : null;
}

/** Which way the product's emails leave (see the module comment). */
export function productMailRoute(
  connection: Pick<SupabaseConnection, 'fetch' | 'serviceRoleKey'>,
  smtp: SmtpConfig | null = productSmtp(),
): ProductMailRoute {
  if (smtp) return 'smtp';
  return connection.fetch && connection.serviceRoleKey ? 'outbox' : 'off';
}

/** The start-up log's line when the product sends no email at all; null when it does. */
export function productMailNotice(
  connection: Pick<SupabaseConnection, 'fetch' | 'serviceRoleKey'>,
  smtp: SmtpConfig | null = productSmtp(),
): string | null {
  return productMailRoute(connection, smtp) === 'off'
    ? 'Product emails (purchase receipts, sale notices, message notices) are off: set SMTP_URL and MAIL_FROM to send them.'
    : null;
}

/** One SMTP sender per server and sender address, for the life of the process. */
const smtpSenders = new Map<string, SmtpSender>();
function smtpSender(smtp: SmtpConfig): SmtpSender {
  const key = `${smtp.url}\n${smtp.from}`;
  let sender = smtpSenders.get(key);
  if (!sender) {
    sender = createSmtpSender(smtp, 'mail');
    smtpSenders.set(key, sender);
  }
  return sender;
}

/**
 * The mailer of this deployment (see the module comment); `origin` is the app's public address.
 * `smtp` defaults to the environment's (tests pass their own SMTP listener).
 */
export function productMailer(
  connection: SupabaseConnection,
  origin: string,
  smtp: SmtpConfig | null = productSmtp(),
): ProductMailer {
  const route = productMailRoute(connection, smtp);
  return {
    origin,
    async send(email) {
      try {
        if (route === 'smtp') {
          await smtpSender(smtp!).send({ to: email.to, subject: email.subject, text: email.text });
          return;
        }
        if (route === 'off') {
          console.info(`[mail] product email not sent (no mail service): to=${email.to} subject="${email.subject}"`);
          return;
        }
        const response = await connection.fetch!(`${connection.url}/auth/v1/admin/outbox`, {
          method: 'POST',
          headers: {
            apikey: connection.serviceRoleKey!,
            authorization: `Bearer ${connection.serviceRoleKey}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(email),
        });
        if (!response.ok) throw new Error(`the outbox answered ${response.status}`);
      } catch (error) {
        console.error(`[mail] ${email.type} to ${email.to} failed:`, (error as Error).message);
      }
    },
  };
}

const PREFERENCES_LINE = (origin: string) =>
  `You receive this email because email notifications are on. Turn them off under Notifications: ${origin}/profile?tab=notifications`;

/** The receipt a buyer gets for a completed purchase. */
export function purchaseReceipt(
  origin: string,
  p: { buyerName: string; agentName: string; listPrice: number; discount: number; amount: number; purchaseId: string },
): Pick<ProductEmail, 'subject' | 'text'> {
  const lines = [
    `Hello ${p.buyerName},`,
    `thank you for your purchase on AgentMarket.`,
    '',
    `Agent: ${p.agentName}`,
    `Price: ${formatMoney(p.listPrice)}`,
    ...(p.discount > 0 ? [`Member discount: -${formatMoney(p.discount)}`] : []),
    `Paid: ${formatMoney(p.amount)}`,
    `Order: ${p.purchaseId}`,
    '',
    `Download it from your collection: ${origin}/dashboard/collection`,
    `Your purchase history: ${origin}/dashboard/purchases`,
    '',
    PREFERENCES_LINE(origin),
  ];
  return { subject: `Your receipt for ${p.agentName}`, text: lines.join('\n') };
}

/** The notice a seller gets when one of their agents is sold. */
export function saleNotice(
  origin: string,
  p: { sellerName: string; buyerName: string; agentName: string; amount: number },
): Pick<ProductEmail, 'subject' | 'text'> {
  const lines = [
    `Hello ${p.sellerName},`,
    `${p.buyerName} bought ${p.agentName} for ${formatMoney(p.amount)}.`,
    '',
    `Your sales and earnings: ${origin}/dashboard/earnings`,
    '',
    PREFERENCES_LINE(origin),
  ];
  return { subject: `You sold ${p.agentName}`, text: lines.join('\n') };
}

const failure = (what: string) => ({ what, unavailable: 'The purchase emails could not be prepared.' });

/**
 * Sends the emails of a completed purchase, each to a user whose email notifications are on.
 * `service` is the service-role client (the buyer's and seller's addresses and settings). Never
 * throws: the purchase is made whether or not its emails go out.
 */
export async function notifyPurchaseCompleted(
  service: AppSupabaseClient,
  mailer: ProductMailer,
  purchaseId: string,
): Promise<void> {
  try {
    const purchase = unwrap(
      await service
        .from('purchases')
        .select('id, buyer_id, list_price, discount_amount, amount, agents(name, seller_id)')
        .eq('id', purchaseId)
        .single(),
      failure('purchase'),
    );
    const agent = purchase.agents;
    if (!agent || !purchase.buyer_id) return;
    const people = [purchase.buyer_id, agent.seller_id].filter((id): id is string => !!id);
    const [users, settings] = await Promise.all([
      service.from('users').select('id, username, email').in('id', people),
      service.from('user_settings').select('user_id, email_notifications').in('user_id', people),
    ]);
    const byId = new Map(unwrap(users, failure('people')).map((user) => [user.id, user]));
    // No settings row: the default, on.
    const optedOut = new Set(
      unwrap(settings, failure('settings'))
        .filter((row) => !row.email_notifications)
        .map((row) => row.user_id),
    );
    const buyer = byId.get(purchase.buyer_id);
    const seller = agent.seller_id ? byId.get(agent.seller_id) : undefined;
    const amount = Number(purchase.amount);
    const sends: Promise<void>[] = [];
    if (buyer?.email && !optedOut.has(buyer.id)) {
      const receipt = purchaseReceipt(mailer.origin, {
        buyerName: buyer.username,
        agentName: agent.name,
        listPrice: Number(purchase.list_price ?? purchase.amount),
        discount: Number(purchase.discount_amount ?? 0),
        amount,
        purchaseId: purchase.id,
      });
      sends.push(mailer.send({ to: buyer.email, type: 'purchase_receipt', ...receipt }));
    }
    if (seller?.email && !optedOut.has(seller.id)) {
      const notice = saleNotice(mailer.origin, {
        sellerName: seller.username,
        buyerName: buyer?.username ?? 'A buyer',
        agentName: agent.name,
        amount,
      });
      sends.push(mailer.send({ to: seller.email, type: 'sale_notice', ...notice }));
    }
    await Promise.all(sends);
  } catch (error) {
    console.error(`[mail] the emails of purchase ${purchaseId} were not sent:`, error);
  }
}

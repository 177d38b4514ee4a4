/**
 * The Stripe provider (docs/decisions/019-stripe-provider.md), over the official SDK. Chosen by
 * `paymentProvider()` when STRIPE_SECRET_KEY is set (with STRIPE_WEBHOOK_SECRET: env.server.ts).
 *
 *   purchases      a PaymentIntent on the buyer's Stripe customer and default payment method,
 *                  confirmed off-session at once; Stripe's Idempotency-Key is the form's key
 *                  scoped to the buyer (`memberKey`)
 *   refunds        a refund of one purchase: the PaymentIntent's amount, or an order line's share
 *   subscriptions  Stripe Billing: one Price per paid tier (STRIPE_PRICE_* or lookup keys
 *                  `premium_monthly` / `enterprise_monthly`); upgrades prorated and invoiced at
 *                  once, downgrades from the next period, cancel_at_period_end for cancelling
 *   webhooks       `readEvent`: the Stripe-Signature checked, the event read by
 *                  `notificationOfStripeEvent` (stripe-events.server.ts)
 *
 * A member's Stripe customer is found by `metadata.user_id` (Customer Search) and created with an
 * idempotency key of the user id, so two requests at once still make one customer; it is then
 * remembered in process. Card details never pass through this server: test mode may use Stripe's
 * test tokens; a live key adds no card here (collecting cards on Stripe's own page, Checkout in
 * setup mode, is not built: ADR 019).
 */
import type Stripe from 'stripe';
import { addMonth, type PaidTierId } from '~/lib/subscriptions';
import { env } from '~/server/env.server';
import {
  InvalidNotificationError,
  type PaymentNotification,
  type PaymentProvider,
  type SubscriptionCharge,
} from './provider.server';
import { notificationOfStripeEvent, type StripeWebhookNotification } from './stripe-events.server';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Price ids per tier; a tier without one is looked up by its lookup key. */
  prices?: Partial<Record<PaidTierId, string>>;
  /** Tests: Stripe's HTTP client over a recorded-response fetch (no network). */
  httpClient?: Stripe.HttpClient;
}

export interface StripePaymentProvider extends PaymentProvider {
  readonly id: 'stripe';
  /** A webhook request: its signature checked (else InvalidNotificationError), its event read. */
  readEvent(request: Request): Promise<StripeWebhookNotification>;
}

/** The lookup key of each tier's monthly Price when no STRIPE_PRICE_* names it. */
export const PRICE_LOOKUP_KEYS: Record<PaidTierId, string> = {
  premium: 'premium_monthly',
  enterprise: 'enterprise_monthly',
};

const NO_PAYMENT_METHOD = 'No saved payment method: add a card on Billing first.';

// --- Saved payment methods ----------------------------------------------------------------------
const LIVE_CARDS = 'Cards are added on Stripe’s secure page; this form takes test cards only.';

/** Stripe's test numbers and the test PaymentMethods that stand for them (docs.stripe.com/testing). */
export const STRIPE_TEST_PAYMENT_METHODS: Readonly<Record<string, string>> = {
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '378282246310005': 'pm_card_amex',
  '4000000000000002': 'pm_card_visa_chargeDeclined',
  '4000000000000341': 'pm_card_chargeCustomerFail',
};

/** The names our labels use ("Visa •••• 4242") for Stripe's brand codes. */
const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};
// --- end of saved payment methods ----------------------------------------------------------------

/** A declined card (or one that needs its owner present): Stripe's own message for the member. */
function declineOf(error: unknown): { reason: string; paymentIntentId: string | null } | null {
  // Stripe's errors carry their class's name as `type` (the SDK itself is loaded lazily, below).
  if ((error as { type?: unknown } | null)?.type !== 'StripeCardError') return null;
  const declined = error as Stripe.errors.StripeCardError;
  return { reason: declined.message || 'The card was declined.', paymentIntentId: declined.payment_intent?.id ?? null };
}

/**
 * Stripe's Idempotency-Key for a request a form made: the form's key scoped to whose request it
 * is. Stripe keeps keys per account, not per customer, and the form's key comes from the browser,
 * so unscoped one member's key could replay another member's payment (or be refused as reused).
 */
const memberKey = (kind: 'purchase' | 'subscription' | 'change', owner: string, formKey: string) =>
  `${kind}:${owner}:${formKey}`;

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** One Stripe account as the parts below use it: the SDK, and a member's customer, card and prices. */
interface StripeAccount {
  settings: StripeSettings;
  client(): Promise<Stripe>;
  customerOf(userId: string): Promise<string>;
  paymentMethodOf(customerId: string): Promise<string | null>;
  priceOf(tier: PaidTierId): Promise<string>;
}

export function createStripeProvider(settings: StripeSettings): StripePaymentProvider {
  const account = stripeAccount(settings);
  return {
    id: 'stripe',
    testMode: settings.secretKey.includes('_test_'),
    ...stripePayments(account),
    ...stripeWebhooks(account),
    ...stripeSubscriptions(account),
    ...stripePaymentMethods(account),
  };
}

function stripeAccount(settings: StripeSettings): StripeAccount {
  // The SDK (0.1 s of module loading) is loaded by the first call that needs it, not at start-up.
  let sdk: Promise<Stripe> | null = null;
  const client = () =>
    (sdk ??= import('stripe').then(
      ({ default: StripeSdk }) =>
        new StripeSdk(settings.secretKey, {
          maxNetworkRetries: 2,
          appInfo: { name: 'AgentMarket' },
          ...(settings.httpClient ? { httpClient: settings.httpClient } : {}),
        }),
    ));
  const customers = new Map<string, string>();
  const prices = new Map<PaidTierId, string>(Object.entries(settings.prices ?? {}) as [PaidTierId, string][]);

  async function customerOf(userId: string): Promise<string> {
    const known = customers.get(userId);
    if (known) return known;
    const stripe = await client();
    const found = await stripe.customers.search({ query: `metadata['user_id']:'${userId}'`, limit: 1 });
    // Search lags about a minute behind; the idempotency key covers a customer created meanwhile.
    const customer =
      found.data[0] ??
      (await stripe.customers.create({ metadata: { user_id: userId } }, { idempotencyKey: `customer:${userId}` }));
    customers.set(userId, customer.id);
    return customer.id;
  }

  /** The customer's default payment method (set when a card is saved), else its newest card. */
  async function paymentMethodOf(customerId: string): Promise<string | null> {
    const stripe = await client();
    const customer = await stripe.customers.retrieve(customerId);
    if ('deleted' in customer && customer.deleted) return null;
    const preferred = idOf(customer.invoice_settings?.default_payment_method);
    if (preferred) return preferred;
    const cards = await stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 1 });
    return cards.data[0]?.id ?? null;
  }

  async function priceOf(tier: PaidTierId): Promise<string> {
    const known = prices.get(tier);
    if (known) return known;
    const stripe = await client();
    const found = await stripe.prices.list({ lookup_keys: [PRICE_LOOKUP_KEYS[tier]], active: true, limit: 1 });
    const price = found.data[0]?.id;
    if (!price) {
      throw new Error(
        `No Stripe Price for ${tier}: set STRIPE_PRICE_${tier.toUpperCase()} or give an active Price the lookup key ${PRICE_LOOKUP_KEYS[tier]}`,
      );
    }
    prices.set(tier, price);
    return price;
  }

  return { settings, client, customerOf, paymentMethodOf, priceOf };
}

/** Purchases and refunds: a PaymentIntent confirmed off-session at once, a full refund of it. */
function stripePayments({ client, customerOf, paymentMethodOf }: StripeAccount) {
  /** The outcome a PaymentIntent reached at once; null while it is still processing. */
  function settledIntent(intent: Stripe.PaymentIntent): PaymentNotification | null {
    const eventId = `sync_${intent.id}_${intent.status}`;
    if (intent.status === 'succeeded') return { eventId, paymentIntentId: intent.id, outcome: 'completed' };
    if (intent.status === 'processing') return null;
    return {
      eventId,
      paymentIntentId: intent.id,
      outcome: 'failed',
      reason: intent.last_payment_error?.message ?? 'The payment could not be completed without you present.',
    };
  }

  return {
    async createPayment({ purchaseId, buyerId, amountCents, currency, description, idempotencyKey, paymentMethodId }) {
      if (amountCents === 0) {
        // A free agent: nothing to charge, nothing at Stripe.
        const paymentIntentId = `free_${purchaseId}`;
        return {
          paymentIntentId,
          settled: { eventId: `sync_${paymentIntentId}`, paymentIntentId, outcome: 'completed' },
        };
      }
      const stripe = await client();
      const customer = await customerOf(buyerId);
      const paymentMethod = paymentMethodId ?? (await paymentMethodOf(customer));
      if (!paymentMethod) {
        const paymentIntentId = `none_${purchaseId}`;
        return {
          paymentIntentId,
          settled: {
            eventId: `sync_${paymentIntentId}`,
            paymentIntentId,
            outcome: 'failed',
            reason: NO_PAYMENT_METHOD,
          },
        };
      }
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: amountCents,
            currency,
            customer,
            payment_method: paymentMethod,
            confirm: true,
            off_session: true,
            description,
            metadata: { purchase_id: purchaseId, user_id: buyerId },
          },
          { idempotencyKey: memberKey('purchase', buyerId, idempotencyKey) },
        );
        return { paymentIntentId: intent.id, settled: settledIntent(intent) };
      } catch (error) {
        const decline = declineOf(error);
        if (!decline) throw error;
        const paymentIntentId = decline.paymentIntentId ?? `declined_${purchaseId}`;
        return {
          paymentIntentId,
          settled: {
            eventId: `sync_${paymentIntentId}_failed`,
            paymentIntentId,
            outcome: 'failed',
            reason: decline.reason,
          },
        };
      }
    },

    async refund({ paymentIntentId, purchaseId, amountCents, reason }) {
      const stripe = await client();
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntentId,
          // The purchase's share: all of a single purchase's payment, one line of an order's.
          amount: amountCents,
          reason: 'requested_by_customer',
          metadata: { reason: reason.slice(0, 500), purchase_id: purchaseId },
        },
        { idempotencyKey: `refund:${purchaseId}` },
      );
      if (refund.status === 'succeeded') {
        return { settled: { eventId: `sync_${refund.id}`, paymentIntentId, outcome: 'refunded', reason } };
      }
      if (refund.status === 'pending' || refund.status === 'requires_action') return { settled: null };
      throw new Error(`Stripe refused the refund ${refund.id} (${refund.status})`);
    },
  } satisfies Partial<PaymentProvider>;
}

/** Webhooks: the Stripe-Signature checked, the event read by `notificationOfStripeEvent`. */
function stripeWebhooks({ client, settings }: StripeAccount) {
  async function readEvent(request: Request): Promise<StripeWebhookNotification> {
    const stripe = await client();
    const signature = request.headers.get('stripe-signature');
    if (!signature) throw new InvalidNotificationError('No Stripe-Signature header');
    // The signature is over the exact bytes Stripe sent.
    const body = Buffer.from(await request.arrayBuffer());
    let event: Stripe.Event;
    try {
      event = await stripe.webhooks.constructEventAsync(body, signature, settings.webhookSecret);
    } catch (error) {
      throw new InvalidNotificationError(error instanceof Error ? error.message : 'Invalid Stripe signature');
    }
    return notificationOfStripeEvent(event);
  }

  return {
    readEvent,
    async readNotification(request: Request) {
      const read = await readEvent(request);
      return read.kind === 'payment' ? read.notification : null;
    },
  };
}

/** Stripe Billing: subscribe, change plan, cancel at the period's end; Stripe renews by itself. */
function stripeSubscriptions({ client, customerOf, paymentMethodOf, priceOf }: StripeAccount) {
  return {
    async createSubscription({ userId, tier, idempotencyKey, now, paymentMethodId }) {
      const stripe = await client();
      const customer = await customerOf(userId);
      const failed = (reason: string, paymentId = ''): Awaited<ReturnType<PaymentProvider['createSubscription']>> => ({
        subscriptionId: '',
        customerId: customer,
        periodStart: now,
        periodEnd: addMonth(now),
        charge: { paymentId, outcome: 'failed', reason },
      });
      const paymentMethod = paymentMethodId ?? (await paymentMethodOf(customer));
      if (!paymentMethod) return failed(NO_PAYMENT_METHOD);
      try {
        const subscription = await stripe.subscriptions.create(
          {
            customer,
            items: [{ price: await priceOf(tier) }],
            default_payment_method: paymentMethod,
            off_session: true,
            // A declined first month is an error here, never an incomplete subscription left behind.
            payment_behavior: 'error_if_incomplete',
            metadata: { user_id: userId, tier },
            expand: ['latest_invoice'],
          },
          { idempotencyKey: memberKey('subscription', userId, idempotencyKey) },
        );
        const item = subscription.items.data[0]!;
        const invoice = subscription.latest_invoice as Stripe.Invoice | null;
        return {
          subscriptionId: subscription.id,
          customerId: customer,
          periodStart: new Date(item.current_period_start * 1000),
          periodEnd: new Date(item.current_period_end * 1000),
          charge: { paymentId: invoice?.id ?? subscription.id, outcome: 'paid' },
        };
      } catch (error) {
        const decline = declineOf(error);
        if (!decline) throw error;
        return failed(decline.reason, decline.paymentIntentId ?? '');
      }
    },

    async changeSubscription({ subscriptionId, tier, effective, idempotencyKey, paymentMethodId }) {
      const stripe = await client();
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      const item = subscription.items.data[0]!;
      const price = await priceOf(tier);
      if (effective === 'period_end') {
        // The new price is billed from the next invoice (the period's end); nothing is charged now.
        if (item.price.id !== price) {
          await stripe.subscriptions.update(
            subscriptionId,
            { items: [{ id: item.id, price }], proration_behavior: 'none' },
            { idempotencyKey: memberKey('change', subscriptionId, idempotencyKey) },
          );
        }
        return { charge: null };
      }
      try {
        // Stripe prorates to the second and invoices the difference now (our quote is to the day).
        const updated = await stripe.subscriptions.update(
          subscriptionId,
          {
            items: [{ id: item.id, price }],
            proration_behavior: 'always_invoice',
            payment_behavior: 'error_if_incomplete',
            off_session: true,
            // The member's default card now (it may have changed since they subscribed).
            ...(paymentMethodId ? { default_payment_method: paymentMethodId } : {}),
            metadata: { tier },
            expand: ['latest_invoice'],
          },
          { idempotencyKey: memberKey('change', subscriptionId, idempotencyKey) },
        );
        const invoice = updated.latest_invoice as Stripe.Invoice | null;
        const charge: SubscriptionCharge = { paymentId: invoice?.id ?? updated.id, outcome: 'paid' };
        return { charge };
      } catch (error) {
        const decline = declineOf(error);
        if (!decline) throw error;
        return { charge: { paymentId: decline.paymentIntentId ?? '', outcome: 'failed', reason: decline.reason } };
      }
    },

    async setCancelAtPeriodEnd({ subscriptionId, cancel }) {
      const stripe = await client();
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
    },

    // ---- Renewals: Stripe Billing renews by itself and reports by webhook (invoice.paid / payment_failed).
    async renewSubscription() {
      return null;
    },
  } satisfies Partial<PaymentProvider>;
}

/**
 * Saved payment methods.
 * Stripe takes no raw card number through its API (and never in live mode): in test mode a
 * typed test number stands for Stripe's matching test PaymentMethod; with a live key this
 * method refuses (cards would be collected on Stripe's own page, ADR 019).
 */
function stripePaymentMethods({ client, customerOf, settings }: StripeAccount) {
  return {
    async savePaymentMethod({ userId, card }) {
      if (!settings.secretKey.includes('_test_')) return { ok: false, reason: LIVE_CARDS };
      const stripe = await client();
      const token = STRIPE_TEST_PAYMENT_METHODS[card.number.replace(/[\s-]/g, '')];
      if (!token)
        return { ok: false, reason: 'Stripe test mode accepts only test cards, such as 4242 4242 4242 4242.' };
      const customer = await customerOf(userId);
      try {
        const attached = await stripe.paymentMethods.attach(token, { customer });
        const method = await stripe.paymentMethods.update(attached.id, {
          card: { exp_month: card.expMonth, exp_year: card.expYear },
        });
        const details = method.card!;
        return {
          ok: true,
          method: {
            id: method.id,
            brand: CARD_BRANDS[details.brand] ?? details.display_brand ?? details.brand,
            last4: details.last4,
            expMonth: details.exp_month,
            expYear: details.exp_year,
          },
        };
      } catch (error) {
        const decline = declineOf(error);
        if (!decline) throw error;
        return { ok: false, reason: decline.reason };
      }
    },
    async updatePaymentMethodExpiry({ methodId, expMonth, expYear }) {
      const stripe = await client();
      await stripe.paymentMethods.update(methodId, { card: { exp_month: expMonth, exp_year: expYear } });
    },
    async detachPaymentMethod({ methodId }) {
      const stripe = await client();
      await stripe.paymentMethods.detach(methodId);
    },
  } satisfies Partial<PaymentProvider>;
}

let configured: { key: string; provider: StripePaymentProvider } | null = null;

/** The Stripe provider of this server's configuration, or null when STRIPE_SECRET_KEY is not set. */
export function stripeProvider(): StripePaymentProvider | null {
  const secretKey = env.STRIPE_SECRET_KEY;
  if (!secretKey || !env.STRIPE_WEBHOOK_SECRET) return null;
  const key = [secretKey, env.STRIPE_WEBHOOK_SECRET, env.STRIPE_PRICE_PREMIUM, env.STRIPE_PRICE_ENTERPRISE].join(' ');
  if (configured?.key !== key) {
    const prices: Partial<Record<PaidTierId, string>> = {};
    if (env.STRIPE_PRICE_PREMIUM) prices.premium = env.STRIPE_PRICE_PREMIUM;
    if (env.STRIPE_PRICE_ENTERPRISE) prices.enterprise = env.STRIPE_PRICE_ENTERPRISE;
    configured = {
      key,
      provider: createStripeProvider({ secretKey, webhookSecret: env.STRIPE_WEBHOOK_SECRET, prices }),
    };
  }
  return configured.provider;
}

/**
 * The payment-provider boundary (docs/decisions/014-checkout-and-payments.md). Checkout and
 * refunds talk to a provider only through this interface; what a provider reports back, at once
 * or later through a webhook, arrives as a `PaymentNotification` and is applied by
 * `applyPaymentNotification` (app/server/purchases.server.ts), once per event id.
 */

/** Amounts travel in cents, so no provider ever sees a rounded float. */
export interface CreatePaymentInput {
  purchaseId: string;
  /** Our user id of the buyer: a real provider charges their customer's saved payment method. */
  buyerId: string;
  amountCents: number;
  currency: 'usd';
  description: string;
  /** The same key gives the same payment at the provider (a retried request is not a second charge). */
  idempotencyKey: string;
  /** The saved payment method to charge (`payment_methods.provider_method_id`); null: the provider's default. */
  paymentMethodId?: string | null;
}

/** What the provider said about a payment, or a refund of one. */
export interface PaymentNotification {
  /** The provider's event id: a notification delivered twice is applied once. */
  eventId: string;
  /** The provider's payment id, stored on the purchase as `payment_intent_id`. */
  paymentIntentId: string;
  outcome: 'completed' | 'failed' | 'refunded';
  /** Why a payment failed or was refunded, in words a buyer can read. */
  reason?: string;
}

export interface CreatedPayment {
  paymentIntentId: string;
  /** The outcome when the provider settled at once (the test provider); null: wait for the webhook. */
  settled: PaymentNotification | null;
}

/** A charge of a subscription (its first month, a prorated upgrade), as the provider settled it. */
export interface SubscriptionCharge {
  paymentId: string;
  outcome: 'paid' | 'failed';
  /** Why a charge failed, in words a member can read. */
  reason?: string;
}

export interface CreateSubscriptionInput {
  /** Our user id: the provider's customer is looked up or created from it. */
  userId: string;
  tier: 'premium' | 'enterprise';
  /** The monthly price, charged today for the first month. */
  amountCents: number;
  currency: 'usd';
  description: string;
  idempotencyKey: string;
  /** The server's clock (tests move it); a real provider uses its own. */
  now: Date;
  /** The saved payment method to charge (`payment_methods.provider_method_id`); null: the provider's default. */
  paymentMethodId?: string | null;
}

export interface CreatedSubscription {
  subscriptionId: string;
  customerId: string;
  periodStart: Date;
  periodEnd: Date;
  charge: SubscriptionCharge;
}

export interface ChangeSubscriptionInput {
  subscriptionId: string;
  tier: 'premium' | 'enterprise';
  /** 'now': charge `prorationCents` today; 'period_end': the new price from the next period, no charge. */
  effective: 'now' | 'period_end';
  prorationCents: number;
  description: string;
  idempotencyKey: string;
  /** The saved payment method to charge (`payment_methods.provider_method_id`); null: the provider's default. */
  paymentMethodId?: string | null;
}

export interface PaymentProvider {
  /** Stored on each purchase (`payment_provider`). */
  readonly id: string;
  /** True when no money moves: the pages say "test mode" wherever money would. */
  readonly testMode: boolean;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /**
   * Refunds one purchase of a settled payment: the whole payment, or the purchase's share of an
   * order's payment (`amountCents`; one refund per purchase). Null `settled`: the outcome arrives
   * by webhook.
   */
  refund(input: { paymentIntentId: string; purchaseId: string; amountCents: number; reason: string }): Promise<{
    settled: PaymentNotification | null;
  }>;
  /**
   * A webhook request from the provider, checked (its signature) and read; null when it is not a
   * notification this app acts on. Throws `InvalidNotificationError` when the check fails.
   */
  readNotification(request: Request): Promise<PaymentNotification | null>;

  /** Starts a monthly subscription and charges its first month. */
  createSubscription(input: CreateSubscriptionInput): Promise<CreatedSubscription>;
  /** Moves a subscription to another plan; the charge made now, if any (null for 'period_end'). */
  changeSubscription(input: ChangeSubscriptionInput): Promise<{ charge: SubscriptionCharge | null }>;
  /** Sets or clears "cancel at the end of the current period" (the undo). */
  setCancelAtPeriodEnd(input: { subscriptionId: string; cancel: boolean }): Promise<void>;

  // --- Saved payment methods (app/server/payment-methods.server.ts) ----------------------------
  // The card's number and CVC go to the provider and nowhere else; what comes back (an id, the
  // brand, the last four digits, the expiry) is all this app stores.
  /** Saves a card for the member; refused (a decline, a bad number) with a reason they can read. */
  savePaymentMethod(input: { userId: string; card: CardDetails }): Promise<SavedPaymentMethodOutcome>;
  /** Changes the expiry of a saved card (the card's number stays the same). */
  updatePaymentMethodExpiry(input: { methodId: string; expMonth: number; expYear: number }): Promise<void>;
  /** Forgets a saved card at the provider. */
  detachPaymentMethod(input: { methodId: string }): Promise<void>;
  // --- end of saved payment methods ------------------------------------------------------------

  // ---- Renewals (the renewal job, app/server/renewals.server.ts) ----
  /**
   * Charges the next period of a due subscription (its period ended): the outcome as a
   * notification ('renewed' or 'past_due'), applied by `applySubscriptionNotification`; null
   * when the provider renews by itself and reports by webhook. The same idempotency key is the
   * same attempt (the same outcome, the same event id).
   */
  renewSubscription(input: RenewSubscriptionInput): Promise<SubscriptionNotification | null>;
  // ---- end Renewals ----
}

// --- Saved payment methods ----------------------------------------------------------------------
/** What a member typed: only ever handed to the provider, never stored, logged or echoed. */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** A card as the provider saved it. */
export interface SavedPaymentMethod {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type SavedPaymentMethodOutcome = { ok: true; method: SavedPaymentMethod } | { ok: false; reason: string };
// --- end of saved payment methods ----------------------------------------------------------------

/**
 * What the provider said about a subscription, later than the request that changed it (a
 * renewal's charge, a failed renewal, the end of a subscription): from the renewal job (the
 * test-mode provider) or a webhook (Stripe). Applied by `applySubscriptionNotification`
 * (app/server/subscription-lifecycle.server.ts), once per event id.
 */
export interface SubscriptionNotification {
  /** The provider's event id: a notification delivered twice is applied once. */
  eventId: string;
  /** The provider's subscription id (`subscriptions.provider_subscription_id`). */
  providerSubscriptionId: string;
  outcome: 'renewed' | 'past_due' | 'canceled';
  /** 'renewed': the new period. */
  period?: { start: Date; end: Date };
  /** 'renewed' and 'past_due': the charge that was paid or failed. */
  charge?: { paymentId: string; amountCents: number; paymentMethod?: string | null };
  /** Why a charge failed or a subscription ended, in words a member can read. */
  reason?: string;
}

// ---- Renewals (the renewal job, app/server/renewals.server.ts) ----
export interface RenewSubscriptionInput {
  /** The provider's subscription id. */
  subscriptionId: string;
  /** The plan of the new period (a scheduled downgrade takes effect here). */
  tier: 'premium' | 'enterprise';
  amountCents: number;
  currency: 'usd';
  description: string;
  /** Where the new period starts: the end of the one that ended (renewals keep the billing date). */
  periodStart: Date;
  /** The member's saved payment method to charge (their default); null or absent: none saved. */
  paymentMethodId?: string | null;
  /** Its label, recorded on the charge ("Visa •••• 4242"). */
  paymentMethodLabel?: string | null;
  idempotencyKey: string;
  /** The job's clock (tests move it); a real provider uses its own. */
  now: Date;
}
// ---- end Renewals ----

export class InvalidNotificationError extends Error {}

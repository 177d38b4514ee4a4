/**
 * The payment-provider boundary (docs/decisions/014-checkout-and-payments.md). Checkout and
 * refunds talk to a provider only through this interface; what a provider reports back, at once
 * or later through a webhook, arrives as a `PaymentNotification` and is applied by
 * `applyPaymentNotification` (app/server/purchases.server.ts), once per event id.
 */

/** Amounts travel in cents, so no provider ever sees a rounded float. */
export interface CreatePaymentInput {
  purchaseId: string;
  amountCents: number;
  currency: 'usd';
  description: string;
  /** The same key gives the same payment at the provider (a retried request is not a second charge). */
  idempotencyKey: string;
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

export interface PaymentProvider {
  /** Stored on each purchase (`payment_provider`). */
  readonly id: string;
  /** True when no money moves: the pages say "test mode" wherever money would. */
  readonly testMode: boolean;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** Refunds a settled payment in full. Null `settled`: the refund's outcome arrives by webhook. */
  refund(input: { paymentIntentId: string; amountCents: number; reason: string }): Promise<{
    settled: PaymentNotification | null;
  }>;
  /**
   * A webhook request from the provider, checked (its signature) and read; null when it is not a
   * notification this app acts on. Throws `InvalidNotificationError` when the check fails.
   */
  readNotification(request: Request): Promise<PaymentNotification | null>;
}

export class InvalidNotificationError extends Error {}

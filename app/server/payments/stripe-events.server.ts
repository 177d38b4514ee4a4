/**
 * Stripe's webhook events read into our notifications (docs/decisions/019-stripe-provider.md): a
 * pure function of the verified event, so every mapping is unit-tested without Stripe.
 *
 *   payment_intent.succeeded       → PaymentNotification 'completed'
 *   payment_intent.payment_failed  → PaymentNotification 'failed' (Stripe's decline message)
 *   charge.refunded (in full)      → PaymentNotification 'refunded'
 *   invoice.paid (subscription_cycle)            → SubscriptionNotification 'renewed' (new period)
 *   invoice.payment_failed (subscription_cycle)  → SubscriptionNotification 'past_due'
 *   customer.subscription.deleted  → SubscriptionNotification 'canceled'
 *
 * Everything else (other event types, a partial refund, the first invoice of a subscription or a
 * proration invoice, which the request that made them settled already) is ignored.
 */
import type Stripe from 'stripe';
import type { PaymentNotification, SubscriptionNotification } from './provider.server';

export type StripeWebhookNotification =
  | { kind: 'payment'; notification: PaymentNotification }
  | { kind: 'subscription'; notification: SubscriptionNotification }
  | { kind: 'ignored'; eventId: string; type: string };

/** The events the endpoint subscribes to (README "Deploy"; anything else is ignored). */
export const STRIPE_WEBHOOK_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'charge.refunded',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.deleted',
] as const;

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** Why a subscription ended, in words a member can read. */
const ENDED_BECAUSE: Record<string, string> = {
  cancellation_requested: 'The subscription was cancelled.',
  payment_failed: 'The subscription ended because its payments failed.',
  payment_disputed: 'The subscription ended because a payment was disputed.',
};

/** The subscription of a renewal invoice; null for any other invoice (first month, proration, one-off). */
function renewalOf(invoice: Stripe.Invoice): { subscriptionId: string; period: { start: Date; end: Date } } | null {
  if (invoice.billing_reason !== 'subscription_cycle') return null;
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
  if (!subscriptionId) return null;
  // The line item carries the period paid for (the invoice's own period is the one that ended);
  // a renewal invoice always has one (an event carries its first lines).
  const line = invoice.lines?.data?.find((item) => item.period && item.period.end > item.period.start);
  if (!line) return null;
  const period = { start: fromUnix(line.period.start), end: fromUnix(line.period.end) };
  return { subscriptionId, period };
}

export function notificationOfStripeEvent(event: Stripe.Event): StripeWebhookNotification {
  const ignored = { kind: 'ignored', eventId: event.id, type: event.type } as const;
  switch (event.type) {
    case 'payment_intent.succeeded':
      return {
        kind: 'payment',
        notification: { eventId: event.id, paymentIntentId: event.data.object.id, outcome: 'completed' },
      };
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      return {
        kind: 'payment',
        notification: {
          eventId: event.id,
          paymentIntentId: intent.id,
          outcome: 'failed',
          reason: intent.last_payment_error?.message ?? 'The payment was declined.',
        },
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      // A partial refund leaves the purchase completed (we only refund in full).
      if (!charge.refunded || !paymentIntentId) return ignored;
      return { kind: 'payment', notification: { eventId: event.id, paymentIntentId, outcome: 'refunded' } };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const renewal = renewalOf(invoice);
      if (!renewal) return ignored;
      const paid = event.type === 'invoice.paid';
      const notification: SubscriptionNotification = {
        eventId: event.id,
        providerSubscriptionId: renewal.subscriptionId,
        outcome: paid ? 'renewed' : 'past_due',
        charge: {
          paymentId: invoice.id!,
          amountCents: paid ? invoice.amount_paid : invoice.amount_due,
          paymentMethod: null,
        },
      };
      return {
        kind: 'subscription',
        notification: paid
          ? { ...notification, period: renewal.period }
          : { ...notification, reason: 'The renewal payment was declined.' },
      };
    }
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const why = subscription.cancellation_details?.reason;
      return {
        kind: 'subscription',
        notification: {
          eventId: event.id,
          providerSubscriptionId: subscription.id,
          outcome: 'canceled',
          reason: (why && ENDED_BECAUSE[why]) || 'The subscription ended.',
        },
      };
    }
    default:
      return ignored;
  }
}

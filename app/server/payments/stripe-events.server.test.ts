/**
 * Stripe's events → our notifications, on the recorded event payloads of tests/fixtures/stripe
 * (Stripe's event shape at the SDK's API version): each of the six events the endpoint subscribes
 * to, and what is ignored.
 */
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { stripeFixture } from '../../../tests/support/stripe';
import { notificationOfStripeEvent, STRIPE_WEBHOOK_EVENTS } from './stripe-events.server';

const at = (iso: string) => new Date(iso);

describe('notificationOfStripeEvent', () => {
  it('reads the payment events', () => {
    expect(notificationOfStripeEvent(stripeFixture('payment_intent.succeeded'))).toEqual({
      kind: 'payment',
      notification: {
        eventId: 'evt_3QfixturePiSucceeded1',
        paymentIntentId: 'pi_3QfixtureSucceeded01',
        outcome: 'completed',
      },
    });
    expect(notificationOfStripeEvent(stripeFixture('payment_intent.payment_failed'))).toEqual({
      kind: 'payment',
      notification: {
        eventId: 'evt_3QfixturePiFailed0001',
        paymentIntentId: 'pi_3QfixtureFailed0001',
        outcome: 'failed',
        reason: 'Your card has insufficient funds.',
      },
    });
    expect(notificationOfStripeEvent(stripeFixture('charge.refunded'))).toEqual({
      kind: 'payment',
      notification: {
        eventId: 'evt_3QfixtureChRefunded01',
        paymentIntentId: 'pi_3QfixtureRefunded01',
        outcome: 'refunded',
      },
    });
  });

  it('reads the subscription events, with the period paid for from the line item', () => {
    expect(notificationOfStripeEvent(stripeFixture('invoice.paid'))).toEqual({
      kind: 'subscription',
      notification: {
        eventId: 'evt_1QfixtureInvoicePaid1',
        providerSubscriptionId: 'sub_1QfixtureRenewed01',
        outcome: 'renewed',
        period: { start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') },
        charge: { paymentId: 'in_1QfixtureRenewal01', amountCents: 1900, paymentMethod: null },
      },
    });
    expect(notificationOfStripeEvent(stripeFixture('invoice.payment_failed'))).toEqual({
      kind: 'subscription',
      notification: {
        eventId: 'evt_1QfixtureInvoiceFail1',
        providerSubscriptionId: 'sub_1QfixturePastDue01',
        outcome: 'past_due',
        charge: { paymentId: 'in_1QfixturePastDue01', amountCents: 1900, paymentMethod: null },
        reason: 'The renewal payment was declined.',
      },
    });
    expect(notificationOfStripeEvent(stripeFixture('customer.subscription.deleted'))).toEqual({
      kind: 'subscription',
      notification: {
        eventId: 'evt_1QfixtureSubDeleted1',
        providerSubscriptionId: 'sub_1QfixtureCanceled1',
        outcome: 'canceled',
        reason: 'The subscription was cancelled.',
      },
    });
  });

  it('ignores other types, partial refunds and the invoices the requests settled themselves', () => {
    const ignored = (event: Stripe.Event) => notificationOfStripeEvent(event).kind;
    const other = { ...stripeFixture('payment_intent.succeeded'), type: 'customer.created' } as unknown as Stripe.Event;
    expect(notificationOfStripeEvent(other)).toEqual({
      kind: 'ignored',
      eventId: 'evt_3QfixturePiSucceeded1',
      type: 'customer.created',
    });

    const partial = stripeFixture('charge.refunded') as Stripe.ChargeRefundedEvent;
    partial.data.object = { ...partial.data.object, refunded: false, amount_refunded: 100 };
    expect(ignored(partial)).toBe('ignored');

    for (const reason of ['subscription_create', 'subscription_update', 'manual'] as const) {
      const first = stripeFixture('invoice.paid') as Stripe.InvoicePaidEvent;
      first.data.object = { ...first.data.object, billing_reason: reason };
      expect(ignored(first)).toBe('ignored');
    }
    const oneOff = stripeFixture('invoice.payment_failed') as Stripe.InvoicePaymentFailedEvent;
    oneOff.data.object = { ...oneOff.data.object, parent: null };
    expect(ignored(oneOff)).toBe('ignored');
  });

  it('names exactly the events it maps', () => {
    for (const type of STRIPE_WEBHOOK_EVENTS) {
      expect(notificationOfStripeEvent(stripeFixture(type)).kind).not.toBe('ignored');
    }
  });
});

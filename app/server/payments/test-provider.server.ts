/**
 * The test-mode provider: used on the embedded backend and whenever no real provider is
 * configured. It moves no money and says so (`testMode`); every payment settles at once as
 * completed, with a payment-intent id `pi_test_<random>`, and every refund at once as refunded.
 * It accepts no webhooks: nothing outside this process can report a payment for it.
 * Subscriptions too: each starts at once for a calendar month, every charge is paid at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { addMonth } from '~/lib/subscriptions';
import { InvalidNotificationError, type PaymentProvider } from './provider.server';

const randomId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

export const testPaymentProvider: PaymentProvider = {
  id: 'test',
  testMode: true,
  async createPayment() {
    const paymentIntentId = randomId('pi');
    return { paymentIntentId, settled: { eventId: randomId('evt'), paymentIntentId, outcome: 'completed' } };
  },
  async refund({ paymentIntentId, reason }) {
    return { settled: { eventId: randomId('evt'), paymentIntentId, outcome: 'refunded', reason } };
  },
  async readNotification() {
    throw new InvalidNotificationError('The test-mode provider sends no webhooks');
  },
  async createSubscription({ now }) {
    return {
      subscriptionId: randomId('sub'),
      customerId: randomId('cus'),
      periodStart: now,
      periodEnd: addMonth(now),
      charge: { paymentId: randomId('pi'), outcome: 'paid' },
    };
  },
  async changeSubscription({ effective }) {
    return { charge: effective === 'now' ? { paymentId: randomId('pi'), outcome: 'paid' } : null };
  },
  async setCancelAtPeriodEnd() {},

  // ---- Renewals (issue #15: the renewal job, app/server/renewals.server.ts) ----
  // Renews for a calendar month from the end of the last period, paid, unless the payment
  // method's id contains `_0341_` (the declining test card, 4000 0000 0000 0341): then the
  // charge fails, "Your card was declined.". The event id follows the idempotency key, so the
  // same attempt asked twice is the same event (applied once).
  async renewSubscription(input) {
    const eventId = `evt_test_${createHash('sha256').update(input.idempotencyKey).digest('hex').slice(0, 24)}`;
    const charge = {
      paymentId: randomId('pi'),
      amountCents: input.amountCents,
      paymentMethod: input.paymentMethodLabel ?? null,
    };
    if (input.paymentMethodId?.includes('_0341_')) {
      return {
        eventId,
        providerSubscriptionId: input.subscriptionId,
        outcome: 'past_due',
        charge,
        reason: 'Your card was declined.',
      };
    }
    const period = { start: input.periodStart, end: addMonth(input.periodStart) };
    return { eventId, providerSubscriptionId: input.subscriptionId, outcome: 'renewed', period, charge };
  },
  // ---- end Renewals ----
};

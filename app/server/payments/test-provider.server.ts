/**
 * The test-mode provider: used on the embedded backend and whenever no real provider is
 * configured. It moves no money and says so (`testMode`); every payment settles at once as
 * completed, with a payment-intent id `pi_test_<random>`, and every refund at once as refunded.
 * It accepts no webhooks: nothing outside this process can report a payment for it.
 * Subscriptions too: each starts at once for a calendar month, every charge is paid at once.
 */
import { randomBytes } from 'node:crypto';
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
};

/**
 * The test-mode provider: used on the embedded backend and whenever no real provider is
 * configured. It moves no money and says so (`testMode`); every payment settles at once as
 * completed, with a payment-intent id `pi_test_<random>`, and every refund at once as refunded.
 * It accepts no webhooks: nothing outside this process can report a payment for it.
 * Subscriptions too: each starts at once for a calendar month, every charge is paid at once.
 * Saved cards: the well-known Stripe test numbers (see `TEST_CARDS`); a charge with a card saved
 * from 4000 0000 0000 0341 is declined, any other charge is paid.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expiryIsFuture } from '~/lib/payment-methods';
import { addMonth } from '~/lib/subscriptions';
import {
  InvalidNotificationError,
  type CardDetails,
  type PaymentProvider,
  type SavedPaymentMethodOutcome,
} from './provider.server';

const randomId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** A subscription charge: paid, unless made with a card that declines (saved payment methods). */
function testCharge(paymentMethodId: string | null | undefined) {
  return paymentMethodDeclines(paymentMethodId)
    ? { paymentId: randomId('pi'), outcome: 'failed' as const, reason: CARD_DECLINED }
    : { paymentId: randomId('pi'), outcome: 'paid' as const };
}

// --- Saved payment methods ----------------------------------------------------------------------
export const CARD_DECLINED = 'Your card was declined.';

/**
 * Stripe's well-known test numbers and what each does here (https://docs.stripe.com/testing):
 * 'save' saves and charges, 'decline' is refused when saved, 'decline-charges' saves but every
 * charge with it is declined. No other number is accepted.
 */
export const TEST_CARDS: Readonly<
  Record<string, { brand: string; behaviour: 'save' | 'decline' | 'decline-charges' }>
> = {
  '4242424242424242': { brand: 'Visa', behaviour: 'save' },
  '5555555555554444': { brand: 'Mastercard', behaviour: 'save' },
  '378282246310005': { brand: 'American Express', behaviour: 'save' },
  '4000000000000002': { brand: 'Visa', behaviour: 'decline' },
  '4000000000000341': { brand: 'Visa', behaviour: 'decline-charges' },
};

/** The Luhn checksum every card number carries. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

/**
 * Whether every charge with this test-mode method is declined: ids are `pm_test_<last4>_<random>`,
 * and the card 4000 0000 0000 0341 saves but declines (the renewal job relies on this rule too).
 */
export function paymentMethodDeclines(methodId: string | null | undefined): boolean {
  return !!methodId && methodId.startsWith('pm_test_') && methodId.includes('_0341_');
}

function saveTestCard(card: CardDetails): SavedPaymentMethodOutcome {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^[0-9]+$/.test(digits) || !passesLuhn(digits)) return { ok: false, reason: 'Your card number is invalid.' };
  if (!expiryIsFuture(card.expMonth, card.expYear)) return { ok: false, reason: 'Your card has expired.' };
  const known = TEST_CARDS[digits];
  if (!known) {
    return { ok: false, reason: 'Test mode accepts only test cards, such as 4242 4242 4242 4242.' };
  }
  if (known.behaviour === 'decline') return { ok: false, reason: CARD_DECLINED };
  const last4 = digits.slice(-4);
  return {
    ok: true,
    method: {
      id: `pm_test_${last4}_${randomBytes(12).toString('hex')}`,
      brand: known.brand,
      last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
    },
  };
}
// --- end of saved payment methods ----------------------------------------------------------------

export const testPaymentProvider: PaymentProvider = {
  id: 'test',
  testMode: true,
  async createPayment({ paymentMethodId }) {
    const paymentIntentId = randomId('pi');
    const event = { eventId: randomId('evt'), paymentIntentId };
    return {
      paymentIntentId,
      settled: paymentMethodDeclines(paymentMethodId)
        ? { ...event, outcome: 'failed', reason: CARD_DECLINED }
        : { ...event, outcome: 'completed' },
    };
  },
  async refund({ paymentIntentId, reason }) {
    return { settled: { eventId: randomId('evt'), paymentIntentId, outcome: 'refunded', reason } };
  },
  async readNotification() {
    throw new InvalidNotificationError('The test-mode provider sends no webhooks');
  },
  async createSubscription({ now, paymentMethodId }) {
    return {
      subscriptionId: randomId('sub'),
      customerId: randomId('cus'),
      periodStart: now,
      periodEnd: addMonth(now),
      charge: testCharge(paymentMethodId),
    };
  },
  async changeSubscription({ effective, paymentMethodId }) {
    return { charge: effective === 'now' ? testCharge(paymentMethodId) : null };
  },
  async setCancelAtPeriodEnd() {},

  // --- Saved payment methods: stateless, the id says what the card does -------------------------
  async savePaymentMethod({ card }) {
    return saveTestCard(card);
  },
  async updatePaymentMethodExpiry() {},
  async detachPaymentMethod() {},
  // --- end of saved payment methods ------------------------------------------------------------

  // ---- Renewals (the renewal job, app/server/renewals.server.ts) ----
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
    if (paymentMethodDeclines(input.paymentMethodId)) {
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

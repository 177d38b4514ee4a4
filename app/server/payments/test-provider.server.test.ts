/**
 * The test-mode provider's card rules: the well-known Stripe test numbers after a Luhn and an
 * expiry check; 4000 0000 0000 0002 is declined when saved; a card saved from
 * 4000 0000 0000 0341 declines every charge made with it.
 */
import { describe, expect, it } from 'vitest';
import { CARD_DECLINED, passesLuhn, paymentMethodDeclines, testPaymentProvider } from './test-provider.server';

const FUTURE = new Date().getUTCFullYear() + 2;
const save = (number: string, expYear = FUTURE, expMonth = 12) =>
  testPaymentProvider.savePaymentMethod({ userId: 'u', card: { number, expMonth, expYear, cvc: '123' } });

describe('test-mode payment methods', () => {
  it('checks the Luhn digit', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('378282246310005')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
  });

  it('saves the test cards with their brand, last four and expiry, never the number', async () => {
    for (const [number, brand, last4] of [
      ['4242 4242 4242 4242', 'Visa', '4242'],
      ['5555555555554444', 'Mastercard', '4444'],
      ['378282246310005', 'American Express', '0005'],
    ] as const) {
      const outcome = await save(number);
      expect(outcome).toMatchObject({ ok: true, method: { brand, last4, expMonth: 12, expYear: FUTURE } });
      if (!outcome.ok) throw new Error('not saved');
      expect(outcome.method.id).toMatch(new RegExp(`^pm_test_${last4}_[0-9a-f]{24}$`));
      expect(JSON.stringify(outcome)).not.toContain(number.replace(/ /g, ''));
    }
  });

  it('refuses a bad number, an expired card, an unknown card and the declining card', async () => {
    expect(await save('4242424242424241')).toEqual({ ok: false, reason: 'Your card number is invalid.' });
    expect(await save('4242424242424242', 2020)).toEqual({ ok: false, reason: 'Your card has expired.' });
    expect(await save('4111111111111111')).toMatchObject({ ok: false, reason: expect.stringContaining('test card') });
    expect(await save('4000000000000002')).toEqual({ ok: false, reason: CARD_DECLINED });
  });

  it('declines every charge with a card saved from 4000 0000 0000 0341, and only those', async () => {
    const outcome = await save('4000000000000341');
    if (!outcome.ok) throw new Error('not saved');
    const declining = outcome.method.id;
    expect(paymentMethodDeclines(declining)).toBe(true);
    const visa = await save('4242424242424242');
    if (!visa.ok) throw new Error('not saved');
    expect(paymentMethodDeclines(visa.method.id)).toBe(false);
    expect(paymentMethodDeclines(null)).toBe(false);

    const payment = (paymentMethodId: string | null) =>
      testPaymentProvider.createPayment({
        purchaseId: 'p',
        buyerId: 'u',
        amountCents: 100,
        currency: 'usd',
        description: 'x',
        idempotencyKey: 'k',
        paymentMethodId,
      });
    expect((await payment(declining)).settled).toMatchObject({ outcome: 'failed', reason: CARD_DECLINED });
    expect((await payment(visa.method.id)).settled).toMatchObject({ outcome: 'completed' });
    expect((await payment(null)).settled).toMatchObject({ outcome: 'completed' });

    const subscription = await testPaymentProvider.createSubscription({
      userId: 'u',
      tier: 'premium',
      amountCents: 1900,
      currency: 'usd',
      description: 'x',
      idempotencyKey: 'k',
      now: new Date(),
      paymentMethodId: declining,
    });
    expect(subscription.charge).toMatchObject({ outcome: 'failed', reason: CARD_DECLINED });
    const change = await testPaymentProvider.changeSubscription({
      subscriptionId: 's',
      tier: 'enterprise',
      effective: 'now',
      prorationCents: 100,
      description: 'x',
      idempotencyKey: 'k',
      paymentMethodId: declining,
    });
    expect(change.charge).toMatchObject({ outcome: 'failed', reason: CARD_DECLINED });
  });
});

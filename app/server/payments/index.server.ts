/**
 * Which payment provider this server uses: Stripe when STRIPE_SECRET_KEY is set
 * (docs/decisions/019-stripe-provider.md), else the test-mode provider — the provider of the
 * embedded backend and of any deployment without a real one.
 */
import type { PaymentProvider } from './provider.server';
import { stripeProvider } from './stripe-provider.server';
import { testPaymentProvider } from './test-provider.server';

export function paymentProvider(): PaymentProvider {
  return stripeProvider() ?? testPaymentProvider;
}

export type { PaymentNotification, PaymentProvider } from './provider.server';

/**
 * Which payment provider this server uses. Only the test-mode provider exists today: it is the
 * provider of the embedded backend and of any deployment without a real one. A real provider
 * (Stripe: docs/decisions/014-checkout-and-payments.md) is chosen here from its configuration.
 */
import type { PaymentProvider } from './provider.server';
import { testPaymentProvider } from './test-provider.server';

export function paymentProvider(): PaymentProvider {
  return testPaymentProvider;
}

export type { PaymentNotification, PaymentProvider } from './provider.server';

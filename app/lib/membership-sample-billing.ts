/**
 * The billing page's sample data (§3 "Payment method": demo). Payment methods are not built yet
 * (issue #15), so the page labels them as sample data; nothing here is real. The subscription
 * (ADR 018) and the billing history (app/server/billing-history.server.ts) are real.
 */
export interface SamplePaymentMethod {
  id: string;
  type: 'card' | 'paypal';
  brand?: string;
  last4?: string;
  expiryMonth?: number;
  expiryYear?: number;
  email?: string;
  isDefault: boolean;
}

export const SAMPLE_PAYMENT_METHODS: readonly SamplePaymentMethod[] = [
  { id: 'pm_sample_1', type: 'card', brand: 'Visa', last4: '4242', expiryMonth: 12, expiryYear: 2027, isDefault: true },
  {
    id: 'pm_sample_2',
    type: 'card',
    brand: 'Mastercard',
    last4: '5555',
    expiryMonth: 8,
    expiryYear: 2026,
    isDefault: false,
  },
  { id: 'pm_sample_3', type: 'paypal', email: 'buyer@example.com', isDefault: false },
];

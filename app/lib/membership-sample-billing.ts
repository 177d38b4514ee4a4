/**
 * The billing page's sample data (§3 "Payment method", "Invoice": demo). Payment methods and the
 * billing history are not built yet (issue #15), so the page labels them as sample data; nothing
 * here is a real charge. Dates are fixed so the sample never pretends to be current. The
 * subscription is real (ADR 018).
 */
import type { BillingStatus } from '~/lib/membership';

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

export interface SampleInvoice {
  id: string;
  date: string;
  description: string;
  amount: number;
  status: BillingStatus;
  paymentMethod: string;
  invoiceUrl: string;
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

export const SAMPLE_INVOICES: readonly SampleInvoice[] = [
  {
    id: 'inv_sample_5',
    date: '2025-01-01',
    description: 'Premium membership - monthly',
    amount: 19,
    status: 'paid',
    paymentMethod: 'Visa •••• 4242',
    invoiceUrl: '#',
  },
  {
    id: 'inv_sample_4',
    date: '2024-12-18',
    description: 'AI agent purchase',
    amount: 149,
    status: 'refunded',
    paymentMethod: 'Visa •••• 4242',
    invoiceUrl: '#',
  },
  {
    id: 'inv_sample_3',
    date: '2024-12-01',
    description: 'Premium membership - monthly',
    amount: 19,
    status: 'paid',
    paymentMethod: 'Visa •••• 4242',
    invoiceUrl: '#',
  },
  {
    id: 'inv_sample_2',
    date: '2024-11-14',
    description: 'AI agent purchase',
    amount: 89.5,
    status: 'failed',
    paymentMethod: 'Mastercard •••• 5555',
    invoiceUrl: '#',
  },
  {
    id: 'inv_sample_1',
    date: '2024-11-01',
    description: 'Premium membership - monthly',
    amount: 19,
    status: 'pending',
    paymentMethod: 'PayPal',
    invoiceUrl: '#',
  },
];

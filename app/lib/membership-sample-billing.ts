/**
 * The billing page's sample data (§3 "Invoice": demo). The billing history is not built yet
 * (issue #15), so the page labels it as sample data; nothing here is a real charge. Dates are
 * fixed so the sample never pretends to be current. The subscription (ADR 018) and the saved
 * payment methods (app/server/payment-methods.server.ts) are real.
 */
import type { BillingStatus } from '~/lib/membership';

export interface SampleInvoice {
  id: string;
  date: string;
  description: string;
  amount: number;
  status: BillingStatus;
  paymentMethod: string;
  invoiceUrl: string;
}

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

/**
 * Billing's history (date, description, amount to 2 decimals, status, payment
 * method, Invoice link; 'Download All') and its invoices: the shapes and rules shared by the page,
 * the invoice page and the CSV. The rows come from `public.billing_history` (migration
 * 20261128000200), read in app/server/billing-history.server.ts.
 */
import type { BillingStatus } from '~/lib/membership';
import { fromCents, percentOfCents, toCents } from '~/lib/money';

export const BILLING_PATH = '/dashboard/billing';
export const BILLING_EXPORT_PATH = `${BILLING_PATH}/export`;
export const BILLING_HISTORY_PAGE_SIZE = 20;

/** `/dashboard/billing/invoices/<id>`: the printable invoice of one row. */
export function invoicePath(id: string): string {
  return `${BILLING_PATH}/invoices/${id}`;
}

/** 'purchase' (an agent), 'order' (a cart's agents, one payment) or the kind of a subscription charge. */
export const BILLING_KINDS = ['purchase', 'order', 'subscription', 'proration', 'renewal'] as const;
export type BillingKind = (typeof BILLING_KINDS)[number];

/** The statuses a history row can have (a subset of BILLING_STATUSES; a completed purchase is 'paid'). */
export type BillingRowStatus = Extract<BillingStatus, 'paid' | 'pending' | 'failed' | 'refunded'>;

export interface BillingRow {
  id: string;
  kind: BillingKind;
  /** ISO timestamp of the charge. */
  date: string;
  description: string;
  /** What was charged, after any discount. */
  amount: number;
  status: BillingRowStatus;
  /** The label recorded with the charge, else the provider's ('Test mode'). */
  paymentMethod: string;
  invoiceNumber: string;
}

/** An invoice's extra facts: the price before the discount, the agent or plan, the period. */
export interface InvoiceRow extends BillingRow {
  provider: string;
  listPrice: number;
  discountPercent: number;
  discountAmount: number;
  agentId: string | null;
  agentName: string | null;
  sellerId: string | null;
  tier: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  statusReason: string | null;
  refundedAt: string | null;
}

/** Words for the payment providers, shown when a charge recorded no payment method. */
const PROVIDER_LABELS: Record<string, string> = { test: 'Test mode', stripe: 'Stripe' };

export function providerLabel(provider: string): string {
  return PROVIDER_LABELS[provider] ?? provider;
}

/**
 * The tax rate on invoices, in percent. AgentMarket collects no sales tax or VAT today (and the
 * test-mode provider takes no money), so invoices state a 0 % tax line rather than hide it.
 */
export const INVOICE_TAX_PERCENT = 0;

export interface InvoiceTotals {
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
}

/** Subtotal (list price), discount, tax on the discounted price at INVOICE_TAX_PERCENT, total. */
export function invoiceTotals(row: Pick<InvoiceRow, 'listPrice' | 'discountAmount' | 'amount'>): InvoiceTotals {
  const tax = percentOfCents(toCents(row.amount), INVOICE_TAX_PERCENT);
  return {
    subtotal: row.listPrice,
    discount: row.discountAmount,
    tax: fromCents(tax),
    total: fromCents(toCents(row.amount) + tax),
  };
}

/** The CSV's header: the table's columns, with the invoice number and kind. */
export const BILLING_CSV_HEADER = [
  'Date',
  'Invoice',
  'Kind',
  'Description',
  'Amount',
  'Status',
  'Payment Method',
] as const;

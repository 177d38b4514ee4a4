/**
 * A member's billing history (Billing's table, its CSV, the invoice page): one read of
 * `public.billing_history` (migration 20261128000200) through the viewer's own client. The view
 * reads purchases and subscription charges as the caller and keeps only their own, so nobody
 * reaches another member's invoice: it is simply not there (a 404, never a 403).
 *
 *   listBillingHistory  one page, newest first (Billing)
 *   allBillingHistory   every row, newest first (Download All)
 *   loadInvoice         one row with the seller and the buyer (the invoice page), or null
 */
import type { SupabaseConnection } from '~/context';
import { buyerLicenses } from '~/server/licenses.server';
import { z } from 'zod';
import {
  BILLING_CSV_HEADER,
  BILLING_HISTORY_PAGE_SIZE,
  BILLING_KINDS,
  providerLabel,
  type BillingRow,
  type BillingRowStatus,
  type InvoiceRow,
} from '~/lib/billing-history';
import { toCsv } from '~/lib/csv';
import { isoDay } from '~/lib/dashboard-format';
import { readAll, unwrap } from '~/server/http-errors.server';
import { usernames } from '~/server/paged-lists.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import type { Database } from '~/types/database';
import { pageCount } from '~/lib/pagination';

type HistoryRecord = Database['public']['Views']['billing_history']['Row'];

const ROW_STATUSES = ['paid', 'pending', 'failed', 'refunded'] as const satisfies readonly BillingRowStatus[];

const money = (value: number | null) => Number(value ?? 0);

/** A record of the view as the app's row (every column of a view is nullable in the types). */
export function toInvoiceRow(record: HistoryRecord): InvoiceRow {
  const kind = BILLING_KINDS.find((value) => value === record.kind) ?? 'purchase';
  const status = ROW_STATUSES.find((value) => value === record.status) ?? 'pending';
  const provider = record.provider ?? 'test';
  return {
    id: record.id!,
    kind,
    date: record.created_at!,
    description: record.description ?? '',
    amount: money(record.amount),
    status,
    paymentMethod: record.payment_method ?? providerLabel(provider),
    invoiceNumber: record.invoice_number!,
    provider,
    listPrice: money(record.list_price),
    discountPercent: money(record.discount_percent),
    discountAmount: money(record.discount_amount),
    agentId: record.agent_id,
    agentName: record.agent_name,
    sellerId: record.seller_id,
    tier: record.tier,
    periodStart: record.period_start,
    periodEnd: record.period_end,
    statusReason: record.status_reason,
    refundedAt: record.refunded_at,
  };
}

function toBillingRow(record: HistoryRecord): BillingRow {
  const { id, kind, date, description, amount, status, paymentMethod, invoiceNumber } = toInvoiceRow(record);
  return { id, kind, date, description, amount, status, paymentMethod, invoiceNumber };
}

const failure = { what: 'billing history', unavailable: 'We could not load your billing history. Please try again.' };

const newestFirst = <Q extends { order: (column: string, options: { ascending: boolean }) => Q }>(query: Q) =>
  query.order('created_at', { ascending: false }).order('id', { ascending: false });

export interface BillingHistoryPage {
  rows: BillingRow[];
  page: number;
  pageCount: number;
  total: number;
}

/** One page of the viewer's history, newest first; a page past the end gives the last page. */
export async function listBillingHistory(client: AppSupabaseClient, page: number): Promise<BillingHistoryPage> {
  const from = (page - 1) * BILLING_HISTORY_PAGE_SIZE;
  const result = await newestFirst(client.from('billing_history').select('*', { count: 'exact' })).range(
    from,
    from + BILLING_HISTORY_PAGE_SIZE - 1,
  );
  // Past the last page PostgREST answers 416 (PGRST103): show the last page instead.
  if (result.error?.code === 'PGRST103' && page > 1) {
    const { count } = await client.from('billing_history').select('id', { count: 'exact', head: true });
    const last = pageCount(count ?? 0, BILLING_HISTORY_PAGE_SIZE);
    return listBillingHistory(client, Math.min(last, page - 1));
  }
  const rows = unwrap(result, failure);
  const total = result.count ?? rows.length;
  return {
    rows: rows.map(toBillingRow),
    page,
    pageCount: pageCount(total, BILLING_HISTORY_PAGE_SIZE),
    total,
  };
}

/** Every row of the viewer's history, newest first (read in batches). */
export async function allBillingHistory(client: AppSupabaseClient): Promise<BillingRow[]> {
  const rows = await readAll(
    (from, to) => newestFirst(client.from('billing_history').select('*')).range(from, to),
    failure,
  );
  return rows.map(toBillingRow);
}

/** The CSV of Download All: one line per row, the day in the viewer's zone, amounts with 2 decimals. */
export function billingCsv(rows: readonly BillingRow[], timeZone: string): string {
  return toCsv(
    BILLING_CSV_HEADER,
    rows.map((row) => [
      isoDay(row.date, timeZone),
      row.invoiceNumber,
      row.kind,
      row.description,
      row.amount.toFixed(2),
      row.status,
      row.paymentMethod,
    ]),
  );
}

export interface Party {
  name: string;
  /** `@username`, an email or null. */
  detail: string | null;
}

/** One agent of an order's invoice, at its list price. */
export interface OrderLine {
  purchaseId: string;
  /** The line's licence key (ADR 073), or null (none yet, e.g. a line still being paid). */
  licenseKey: string | null;
  agentName: string | null;
  sellerName: string | null;
  listPrice: number;
  refunded: boolean;
}

export interface Invoice {
  row: InvoiceRow;
  buyer: Party;
  /** The seller of an agent (null for a membership, and for an order: each line names its seller). */
  seller: Party | null;
  /** An order's agents, one line each (null for any other kind). */
  orderLines: OrderLine[] | null;
  /** A single purchase's licence key (ADR 073); null for any other kind, and before there is one. */
  licenseKey: string | null;
}

/** The purchases of the viewer's order, as its invoice's lines (row-level security: their own). */
async function readOrderLines(client: AppSupabaseClient, orderId: string): Promise<OrderLine[]> {
  const rows = unwrap(
    await client
      .from('purchases')
      .select('id, list_price, status, seller_id, agents(name)')
      .eq('order_id', orderId)
      .order('created_at')
      .order('id'),
    failure,
  );
  const names = await usernames(
    client,
    rows.map((row) => row.seller_id),
  );
  return rows.map((row) => ({
    purchaseId: row.id,
    licenseKey: null,
    agentName: row.agents?.name ?? null,
    sellerName: row.seller_id ? (names.get(row.seller_id) ?? null) : null,
    listPrice: money(row.list_price),
    refunded: row.status === 'refunded',
  }));
}

/** Any uuid-shaped id (seeded charges' ids are md5-shaped); anything else is the 404, never a 22P02. */
const InvoiceId = z.guid();

/**
 * The viewer's invoice with this id, or null: an invalid id, another member's charge and a
 * charge that does not exist all look the same (the view holds only the viewer's rows).
 */
export async function loadInvoice(
  client: AppSupabaseClient,
  connection: SupabaseConnection,
  viewerId: string,
  id: string,
): Promise<Invoice | null> {
  const parsed = InvoiceId.safeParse(id);
  if (!parsed.success) return null;
  const record = unwrap(
    await client.from('billing_history').select('*').eq('id', parsed.data.toLowerCase()).maybeSingle(),
    failure,
  );
  if (!record) return null;
  const row = toInvoiceRow(record);
  const [buyer, seller, orderLines] = await Promise.all([
    client.from('users').select('username, first_name, last_name, email').eq('id', viewerId).maybeSingle(),
    row.sellerId
      ? client.from('public_profiles').select('username, display_name').eq('id', row.sellerId).maybeSingle()
      : Promise.resolve({ data: null, error: null }),
    row.kind === 'order' ? readOrderLines(client, row.id) : Promise.resolve(null),
  ]);
  const me = unwrap(buyer, failure);
  const them = unwrap(seller, failure);
  const purchaseIds = orderLines ? orderLines.map((line) => line.purchaseId) : row.kind === 'purchase' ? [row.id] : [];
  const licenses = await buyerLicenses(client, connection, purchaseIds, 'UTC');
  const fullName = [me?.first_name, me?.last_name].filter(Boolean).join(' ');
  return {
    row,
    buyer: { name: fullName || me?.username || 'AgentMarket member', detail: me?.email ?? null },
    seller:
      row.kind === 'purchase'
        ? {
            name: them?.display_name || them?.username || 'A former seller',
            detail: them?.username ? `@${them.username}` : null,
          }
        : null,
    orderLines:
      orderLines?.map((line) => ({ ...line, licenseKey: licenses.get(line.purchaseId)?.key ?? null })) ?? null,
    licenseKey: row.kind === 'purchase' ? (licenses.get(row.id)?.key ?? null) : null,
  };
}

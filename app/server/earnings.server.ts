/**
 * A seller's earnings on /dashboard/earnings and its CSV export: gross sales, the platform fee,
 * refunds and net earnings, overall, per agent and per month, summed by the database
 * (`public.seller_earnings`, migration 20261127000200: the caller's own sales under row-level
 * security) with the one fee rate of app/lib/fees.ts; and one CSV row per purchase.
 */
import { toCsv } from '~/lib/csv';
import { DELETED_ACCOUNT, isoDay } from '~/lib/dashboard-format';
import { platformFee, sellerNet } from '~/lib/fees';
import { getPlatformSettings } from '~/server/platform-settings.server';
import type { PurchaseStatus } from '~/lib/membership';
import { usernames } from '~/server/paged-lists.server';
import { readAll, unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { withTimeZoneFallback } from '~/server/time-zone.server';

export interface EarningsFigures {
  /** Completed and refunded sales (what buyers paid before refunds). */
  salesCount: number;
  gross: number;
  refundCount: number;
  refunds: number;
  /** The platform's share of the sales that were kept. */
  fee: number;
  /** gross - refunds - fee. */
  net: number;
}

export interface AgentEarnings extends EarningsFigures {
  agentId: string;
  agentName: string;
}

export interface MonthEarnings extends EarningsFigures {
  /** `2026-11`: the calendar month in the viewer's time zone. */
  month: string;
}

export interface Earnings {
  feePercent: number;
  total: EarningsFigures;
  /** Most gross first. */
  agents: AgentEarnings[];
  /** Newest month first. */
  months: MonthEarnings[];
}

type EarningsRow = {
  scope: string;
  agent_id: string | null;
  agent_name: string | null;
  month: string | null;
  sales_count: number | string;
  gross: number | string;
  refund_count: number | string;
  refunds: number | string;
  fee: number | string;
  net: number | string;
};

const ZERO: EarningsFigures = { salesCount: 0, gross: 0, refundCount: 0, refunds: 0, fee: 0, net: 0 };

/** The figures of one row (numbers may come as text from the Data API). */
export function toEarningsFigures(row: EarningsRow | undefined): EarningsFigures {
  if (!row) return ZERO;
  return {
    salesCount: Number(row.sales_count),
    gross: Number(row.gross),
    refundCount: Number(row.refund_count),
    refunds: Number(row.refunds),
    fee: Number(row.fee),
    net: Number(row.net),
  };
}

/** The viewer's own earnings; `timeZone` sets the months (an unknown zone falls back to UTC). */
export async function loadEarnings(client: AppSupabaseClient, timeZone: string): Promise<Earnings> {
  const call = (zone: string) =>
    client.rpc('seller_earnings', { time_zone: zone }).overrideTypes<EarningsRow[], { merge: false }>();
  const [result, settings] = await Promise.all([withTimeZoneFallback(timeZone, call), getPlatformSettings(client)]);
  const rows = unwrap(result, 'earnings');
  return {
    feePercent: settings.platformFeePercent,
    total: toEarningsFigures(rows.find((row) => row.scope === 'total')),
    agents: rows
      .filter((row) => row.scope === 'agent' && row.agent_id)
      .map((row) => ({
        agentId: row.agent_id!,
        agentName: row.agent_name ?? 'Unknown agent',
        ...toEarningsFigures(row),
      }))
      .sort((a, b) => b.gross - a.gross || a.agentName.localeCompare(b.agentName)),
    months: rows
      .filter((row) => row.scope === 'month' && row.month)
      .map((row) => ({ month: row.month!.slice(0, 7), ...toEarningsFigures(row) }))
      .sort((a, b) => b.month.localeCompare(a.month)),
  };
}

export interface EarningsCsvRow {
  createdAt: string;
  agentName: string;
  buyerUsername: string;
  listPrice: number;
  discount: number;
  amount: number;
  /** The platform fee in force when it was bought. */
  feePercent: number;
  status: PurchaseStatus;
}

export const EARNINGS_CSV_HEADER = [
  'Date',
  'Agent',
  'Buyer',
  'List price',
  'Discount',
  'Amount',
  'Platform fee',
  'Net',
  'Status',
] as const;

const money = (amount: number) => amount.toFixed(2);

/**
 * The CSV document: one line per purchase, newest first. A kept (completed) sale carries its fee
 * and net; a refunded, pending or failed one brings in nothing (fee and net 0.00), so the Net
 * column adds up to the page's net earnings.
 */
export function earningsCsv(rows: readonly EarningsCsvRow[], timeZone: string): string {
  return toCsv(
    EARNINGS_CSV_HEADER,
    rows.map((row) => {
      const kept = row.status === 'completed';
      return [
        isoDay(row.createdAt, timeZone),
        row.agentName,
        row.buyerUsername,
        money(row.listPrice),
        money(row.discount),
        money(row.amount),
        money(kept ? platformFee(row.amount, row.feePercent) : 0),
        money(kept ? sellerNet(row.amount, row.feePercent) : 0),
        row.status,
      ];
    }),
  );
}

/** Every purchase of the seller's agents, newest first (read in batches under row-level security). */
export async function listEarningsRows(client: AppSupabaseClient, sellerId: string): Promise<EarningsCsvRow[]> {
  const purchases = await readAll(
    (from, to) =>
      client
        .from('purchases')
        .select(
          'id, buyer_id, list_price, discount_amount, amount, platform_fee_percent, status, created_at, agents(name)',
        )
        .eq('seller_id', sellerId)
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(from, to),
    'earnings export',
  );
  const buyers = await usernames(
    client,
    purchases.map((row) => row.buyer_id),
  );
  return purchases.map((row) => ({
    createdAt: row.created_at,
    agentName: row.agents?.name ?? 'Unknown agent',
    buyerUsername: row.buyer_id ? (buyers.get(row.buyer_id) ?? 'Unknown buyer') : DELETED_ACCOUNT,
    listPrice: Number(row.list_price),
    discount: Number(row.discount_amount),
    amount: Number(row.amount),
    feePercent: Number(row.platform_fee_percent),
    status: row.status as PurchaseStatus,
  }));
}

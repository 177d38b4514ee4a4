/**
 * The sales lists of /dashboard/earnings (a seller's own sales) and /dashboard/disputes (every
 * purchase, for admins), read through the viewer's own client: row-level security gives a seller
 * only the sales of their agents and an admin all purchases.
 */
import type { PurchaseStatus } from '~/lib/membership';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { pageCount } from '~/lib/pagination';

export const SALES_PAGE_SIZE = 25;

export interface SaleRow {
  id: string;
  agentId: string;
  agentName: string;
  buyerUsername: string;
  amount: number;
  status: PurchaseStatus;
  statusReason: string | null;
  createdAt: string;
  /** The sale's licence (ADR 073): its public code, activations and whether it is disabled. */
  license: SaleLicense | null;
}

export interface SaleLicense {
  id: string;
  code: string;
  uses: number;
  disabledReason: string | null;
}

export interface SalesPage {
  rows: SaleRow[];
  page: number;
  pageCount: number;
  total: number;
}

interface SalesQuery {
  /** Only this seller's sales (the earnings page); every purchase RLS allows when absent. */
  sellerId?: string;
  /** Agent name or buyer username contains this (the disputes page). */
  search?: string;
  page: number;
}

/** `%`, `_` and `\` match themselves in an ILIKE pattern. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

const EMPTY: SalesPage = { rows: [], page: 1, pageCount: 1, total: 0 };
const SALE_COLUMNS = 'id, agent_id, buyer_id, amount, status, status_reason, created_at, agents(name)';
/** The same from public.purchase_search, whose rows carry the agent's name. */
const SEARCH_COLUMNS = 'id, agent_id, buyer_id, amount, status, status_reason, created_at, agent_name';

/** One page of purchases, newest first, with the agent's name and the buyer's username. */
export async function listSales(client: AppSupabaseClient, { sellerId, search, page }: SalesQuery): Promise<SalesPage> {
  // A search is public.purchase_search's (purchases whose agent name or buyer username contains
  // the words, security invoker): the database picks the matches, no list of ids in the URL.
  const purchases = (head = false) => {
    const query = search
      ? client.rpc('purchase_search', { search }, { count: 'exact', head, get: true }).select(SEARCH_COLUMNS)
      : client.from('purchases').select(SALE_COLUMNS, { count: 'exact', head });
    return sellerId ? query.eq('seller_id', sellerId) : query;
  };
  const from = (page - 1) * SALES_PAGE_SIZE;
  const result = await purchases()
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, from + SALES_PAGE_SIZE - 1)
    .overrideTypes<SaleRecord[], { merge: false }>();
  // Past the last page PostgREST answers 416 (PGRST103): show the last page instead.
  if (result.error?.code === 'PGRST103' && page > 1) {
    const { count } = await purchases(true);
    const last = pageCount(count ?? 0, SALES_PAGE_SIZE);
    return last < page ? listSales(client, { sellerId, search, page: last }) : EMPTY;
  }
  const rows = unwrap(result, 'sales');
  const total = result.count ?? rows.length;
  // A deleted buyer's purchases stay, with no buyer (migration 20261127000300): shown anonymised.
  const buyerIds = [...new Set(rows.flatMap((row) => (row.buyer_id ? [row.buyer_id] : [])))];
  const purchaseIds = rows.map((row) => row.id);
  const [buyers, licenses] = await Promise.all([
    buyerIds.length > 0
      ? client
          .from('public_profiles')
          .select('id, username')
          .in('id', buyerIds)
          .then((result) => unwrap(result, 'buyers of the sales'))
      : [],
    purchaseIds.length > 0
      ? client
          .from('licenses')
          .select('id, purchase_id, code, uses, disabled_reason')
          .in('purchase_id', purchaseIds)
          .then((result) => unwrap(result, 'licences of the sales'))
      : [],
  ]);
  const usernames = new Map(buyers.map((buyer) => [buyer.id, buyer.username]));
  const licenseOf = new Map(
    licenses.map((license) => [
      license.purchase_id,
      { id: license.id, code: license.code, uses: license.uses, disabledReason: license.disabled_reason },
    ]),
  );
  return {
    rows: rows.map((row) => ({
      id: row.id,
      agentId: row.agent_id,
      agentName: row.agents?.name ?? row.agent_name ?? 'Unknown agent',
      buyerUsername: (row.buyer_id && usernames.get(row.buyer_id)) || 'Deleted account',
      amount: Number(row.amount),
      status: row.status as PurchaseStatus,
      statusReason: row.status_reason,
      createdAt: row.created_at,
      license: licenseOf.get(row.id) ?? null,
    })),
    page,
    pageCount: pageCount(total, SALES_PAGE_SIZE),
    total,
  };
}

/** A purchase row as SALE_COLUMNS or SEARCH_COLUMNS reads it (typed here for both). */
interface SaleRecord {
  id: string;
  agent_id: string;
  buyer_id: string | null;
  amount: number;
  status: string;
  status_reason: string | null;
  created_at: string;
  agents?: { name: string } | null;
  agent_name?: string | null;
}

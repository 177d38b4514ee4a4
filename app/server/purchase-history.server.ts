/**
 * Purchase History's reads, with the viewer's client (row-level security: a buyer reads only
 * their own purchases). Filtering happens in the database (`public.purchase_history`, a GET RPC),
 * one page of PAGE_SIZE (24) rows at a time with the filtered total counted by the database;
 * the header's count, total and the category list are the unfiltered history's, summed up by the
 * database (`public.purchase_summary`, one row whatever the history's length).
 * Call only after the section's guard.
 */
import { categoryBySlug, type Category } from '~/lib/categories';
import { DELETED_ACCOUNT, formatDate } from '~/lib/dashboard-format';
import { PAGE_SIZE } from '~/lib/marketplace-params';
import { PURCHASE_STATUSES, totalOf, type PurchaseStatus } from '~/lib/membership';
import { type PurchaseHistoryParams, type PurchaseRow, type SellerContact } from '~/lib/purchase-history';
import { pageOf } from '~/server/admin.server';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export interface PurchaseHistory {
  /** Every purchase of the buyer, whatever the filters. */
  count: number;
  /** The sum of the completed purchases' amounts. */
  totalSpent: number;
  /** The categories of the buyer's purchases, in the categories table's order. */
  categories: Category[];
  /** One page of the purchases under the filters, newest first. */
  rows: PurchaseRow[];
  /** The page shown: the one asked for, or the last one when that is past the end. */
  page: number;
  /** The purchases under the filters (all of them when none is on): what the pages divide. */
  matching: number;
  contact: SellerContact | null;
}

const UNAVAILABLE = 'We could not load your purchase history right now. Please try again in a moment.';
const failure = (what: string) => ({ what, unavailable: UNAVAILABLE });

/** The columns the page reads of `user_purchase_history`. */
type HistoryRecord = {
  id: string | null;
  agent_id: string | null;
  agent_name: string | null;
  agent_description: string | null;
  agent_thumbnail: string | null;
  agent_category: string | null;
  status: string | null;
  status_reason: string | null;
  amount: number | null;
  created_at: string | null;
  download_count: number | null;
  last_downloaded_at: string | null;
  user_rating: number | null;
  seller_id: string | null;
  seller_username: string | null;
  seller_is_online: boolean | null;
  seller_response_time_hours: number | null;
};

const ROW_COLUMNS =
  'id, agent_id, agent_name, agent_description, agent_thumbnail, agent_category, status, status_reason, amount, created_at, download_count, last_downloaded_at, user_rating, seller_id, seller_username, seller_is_online, seller_response_time_hours';

const isPurchaseStatus = (value: unknown): value is PurchaseStatus =>
  (PURCHASE_STATUSES as readonly unknown[]).includes(value);

function toRow(record: HistoryRecord, timeZone: string): PurchaseRow | null {
  if (!record.id || !record.agent_id || !record.created_at || !isPurchaseStatus(record.status)) return null;
  return {
    id: record.id,
    agentId: record.agent_id,
    agentName: record.agent_name ?? 'Unavailable agent',
    agentDescription: record.agent_description ?? '',
    thumbnailUrl: record.agent_thumbnail,
    category: record.agent_category,
    status: record.status,
    statusReason: record.status_reason,
    amount: Number(record.amount ?? 0),
    purchasedOn: formatDate(record.created_at, timeZone),
    downloadCount: Number(record.download_count ?? 0),
    lastDownloadedOn: record.last_downloaded_at ? formatDate(record.last_downloaded_at, timeZone) : null,
    rating: record.user_rating,
    sellerId: record.seller_id ?? '',
    // No seller: the seller deleted their account (the purchase stays, anonymised).
    sellerName: record.seller_id ? (record.seller_username ?? 'Seller') : DELETED_ACCOUNT,
    sellerOnline: record.seller_is_online === true,
    sellerResponseHours: record.seller_response_time_hours,
  };
}

/**
 * Page `page` of the buyer's purchases under `filters` (the RPC's defaults, NULL, where a filter
 * is off); a page past the end gives the last page.
 */
async function readHistoryPage(
  client: AppSupabaseClient,
  filters: Pick<PurchaseHistoryParams, 'q' | 'status' | 'page'> & { categoryName: string | null },
  timeZone: string,
) {
  const { rows, page, total } = await pageOf(
    filters.page,
    (from, to) =>
      client
        .rpc(
          'purchase_history',
          {
            search: filters.q ?? undefined,
            purchase_status: filters.status ?? undefined,
            category: filters.categoryName ?? undefined,
          },
          { get: true, count: 'exact' },
        )
        .select(ROW_COLUMNS)
        .range(from, to)
        .overrideTypes<HistoryRecord[], { merge: false }>(),
    failure('purchase history'),
    PAGE_SIZE,
  );
  return { rows: rows.flatMap((record) => toRow(record, timeZone) ?? []), page, total };
}

/**
 * What the header sums up, of every purchase of the buyer: one row from the database (the
 * caller's own purchases, under row-level security).
 */
async function readSummary(client: AppSupabaseClient) {
  const summary = unwrap(
    await client.rpc('purchase_summary', undefined, { get: true }).single(),
    failure('purchase summary'),
  );
  return {
    count: Number(summary.purchase_count),
    // numeric(10, 2) summed by the database: exact to the cent; through cents like every total.
    totalSpent: totalOf([Number(summary.total_spent)]),
    categoryNames: new Set(summary.categories),
  };
}

/** One purchase of the buyer (the Contact Seller dialog's), or null. */
async function readPurchase(
  client: AppSupabaseClient,
  buyerId: string,
  purchaseId: string,
  timeZone: string,
): Promise<PurchaseRow | null> {
  const record = unwrap(
    await client
      .from('user_purchase_history')
      .select(ROW_COLUMNS)
      .eq('buyer_id', buyerId)
      .eq('id', purchaseId)
      .overrideTypes<HistoryRecord[], { merge: false }>(),
    failure('purchase'),
  )[0];
  return record ? toRow(record, timeZone) : null;
}

/** What the seller's public profile shares with this viewer (the view applies the privacy settings). */
async function readSellerContact(client: AppSupabaseClient, purchase: PurchaseRow): Promise<SellerContact> {
  const profile = unwrap(
    await client
      .from('public_profiles')
      .select('email, phone, website, profile_image_url')
      .eq('id', purchase.sellerId)
      .maybeSingle(),
    failure('seller contact'),
  );
  return {
    purchaseId: purchase.id,
    agentName: purchase.agentName,
    purchasedOn: purchase.purchasedOn,
    sellerName: purchase.sellerName,
    online: purchase.sellerOnline,
    responseHours: purchase.sellerResponseHours,
    pictureUrl: profile?.profile_image_url ?? null,
    email: profile?.email?.trim() || null,
    phone: profile?.phone?.trim() || null,
    website: profile?.website?.trim() || null,
  };
}

/**
 * The page's data. `params.contact` names a purchase of the buyer (any, not only a listed one);
 * another id opens no dialog (`contact` is null, and the loader drops it from the URL).
 */
export async function loadPurchaseHistory(
  client: AppSupabaseClient,
  buyerId: string,
  params: PurchaseHistoryParams,
  categories: readonly Category[],
  timeZone: string,
): Promise<PurchaseHistory> {
  const categoryName = categoryBySlug(categories, params.category)?.name ?? null;
  const [summary, listed, contactPurchase] = await Promise.all([
    readSummary(client),
    readHistoryPage(client, { q: params.q, status: params.status, categoryName, page: params.page }, timeZone),
    params.contact ? readPurchase(client, buyerId, params.contact, timeZone) : null,
  ]);
  return {
    count: summary.count,
    totalSpent: summary.totalSpent,
    categories: categories.filter((category) => summary.categoryNames.has(category.name)),
    rows: listed.rows,
    page: listed.page,
    matching: listed.total,
    // A deleted seller has no one to contact: no dialog.
    contact: contactPurchase?.sellerId ? await readSellerContact(client, contactPurchase) : null,
  };
}

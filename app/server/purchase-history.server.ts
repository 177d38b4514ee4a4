/**
 * Purchase History's reads, with the viewer's client (row-level security: a buyer reads only
 * their own purchases). Filtering and paging happen in the database: one page of PAGE_SIZE (24)
 * rows at a time (`public.purchase_history_page`, a GET RPC, which joins the rows' details for
 * that page only), and the figures in one row (`public.purchase_summary`): the header's count,
 * total and category list of the unfiltered history, and how many purchases pass the filters.
 * A page load costs its 24 rows and the figures, whatever the history's length.
 * Call only after the section's guard.
 */
import { categoryBySlug, type Category } from '~/lib/categories';
import { DELETED_ACCOUNT, formatDate } from '~/lib/dashboard-format';
import { PAGE_SIZE } from '~/lib/marketplace-params';
import { sellerName } from '~/lib/sellers';
import { PURCHASE_STATUSES, type PurchaseStatus } from '~/lib/membership';
import { totalOf } from '~/lib/money';
import { type PurchaseHistoryParams, type PurchaseRow, type SellerContact } from '~/lib/purchase-history';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { pageCount } from '~/lib/pagination';

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
  seller_display_name: string | null;
  seller_is_online: boolean | null;
  seller_response_time_hours: number | null;
};

const ROW_COLUMNS =
  'id, agent_id, agent_name, agent_description, agent_thumbnail, agent_category, status, status_reason, amount, created_at, download_count, last_downloaded_at, user_rating, seller_id, seller_username, seller_display_name, seller_is_online, seller_response_time_hours';

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
    sellerName: record.seller_id
      ? record.seller_username
        ? sellerName(record.seller_username, record.seller_display_name)
        : 'Seller'
      : DELETED_ACCOUNT,
    sellerOnline: record.seller_is_online === true,
    sellerResponseHours: record.seller_response_time_hours,
  };
}

/** The RPCs' filter arguments: a filter that is off is left out (the RPCs' default, NULL). */
type Filters = { search?: string; purchase_status?: string; category?: string };

/** Page `page` of the buyer's purchases under the filters, newest first (the database cuts it). */
async function readPage(client: AppSupabaseClient, filters: Filters, page: number) {
  return client
    .rpc(
      'purchase_history_page',
      { ...filters, page_size: PAGE_SIZE, page_offset: (page - 1) * PAGE_SIZE },
      { get: true },
    )
    .select(ROW_COLUMNS)
    .overrideTypes<HistoryRecord[], { merge: false }>();
}

/**
 * What the header sums up, of every purchase of the buyer, and how many pass the filters: one row
 * from the database (the caller's own purchases, under row-level security).
 */
async function readSummary(client: AppSupabaseClient, filters: Filters) {
  const summary = unwrap(
    await client.rpc('purchase_summary', filters, { get: true }).single(),
    failure('purchase summary'),
  );
  return {
    count: Number(summary.purchase_count),
    // numeric(10, 2) summed by the database: exact to the cent; through cents like every total.
    totalSpent: totalOf([Number(summary.total_spent)]),
    categoryNames: new Set(summary.categories),
    matching: Number(summary.matching_count),
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
    agentId: purchase.agentId,
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
  const filters: Filters = {
    search: params.q ?? undefined,
    purchase_status: params.status ?? undefined,
    category: categoryBySlug(categories, params.category)?.name,
  };
  // The page asked for and the figures side by side; a page past the end (known from the
  // figures) is read again as the last page.
  const [summary, asked, contactPurchase] = await Promise.all([
    readSummary(client, filters),
    readPage(client, filters, params.page),
    params.contact ? readPurchase(client, buyerId, params.contact, timeZone) : null,
  ]);
  const page = Math.min(params.page, pageCount(summary.matching, PAGE_SIZE));
  const records = unwrap(
    page === params.page ? asked : await readPage(client, filters, page),
    failure('purchase history'),
  );
  return {
    count: summary.count,
    totalSpent: summary.totalSpent,
    categories: categories.filter((category) => summary.categoryNames.has(category.name)),
    rows: records.flatMap((record) => toRow(record, timeZone) ?? []),
    page,
    matching: summary.matching,
    // A deleted seller has no one to contact: no dialog.
    contact: contactPurchase?.sellerId ? await readSellerContact(client, contactPurchase) : null,
  };
}

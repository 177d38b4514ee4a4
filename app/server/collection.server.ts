/**
 * My Collection: the viewer's completed purchases, newest first, read from
 * `user_purchase_history` through the request's client (row-level security: buyers read their
 * own purchases; the view is security invoker), one page of PAGE_SIZE (24) at a time with the
 * total counted by the database. A failed read is a 503 (`unwrap`), never sample data.
 */
import type { SupabaseConnection } from '~/context';
import type { CollectionItem } from '~/lib/collection';
import { formatDate } from '~/lib/dashboard-format';
import { PAGE_SIZE } from '~/lib/marketplace-params';
import { sellerName } from '~/lib/sellers';
import { buyerLicenses } from '~/server/licenses.server';
import { unwrap } from '~/server/http-errors.server';
import { pageOf } from '~/server/paged-lists.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export const COLLECTION_UNAVAILABLE_MESSAGE =
  'We could not load your collection right now. Please try again in a moment.';

const COLUMNS =
  'id, agent_id, agent_name, agent_description, agent_thumbnail, agent_category, seller_username, seller_display_name, user_rating, amount, created_at';

export interface CollectionPage {
  items: CollectionItem[];
  /** The page shown: the one asked for, or the last one when that is past the end. */
  page: number;
  /** Every completed purchase of the buyer (the header's count). */
  total: number;
}

/**
 * Page `page` (1-based) of the buyer's collection, each purchase with its licence key (ADR 073);
 * a page past the end gives the last page.
 */
export async function listCollection(
  supabase: AppSupabaseClient,
  connection: SupabaseConnection,
  buyerId: string,
  timeZone: string,
  page = 1,
): Promise<CollectionPage> {
  const {
    rows,
    page: shown,
    total,
  } = await pageOf(
    page,
    (from, to) =>
      supabase
        .from('user_purchase_history')
        .select(COLUMNS, { count: 'exact' })
        .eq('buyer_id', buyerId)
        .eq('status', 'completed')
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(from, to),
    { what: 'collection', unavailable: COLLECTION_UNAVAILABLE_MESSAGE },
    PAGE_SIZE,
  );
  const agentIds = [...new Set(rows.flatMap((row) => (row.agent_id ? [row.agent_id] : [])))];
  const [licenses, updates] = await Promise.all([
    buyerLicenses(
      supabase,
      connection,
      rows.flatMap((row) => (row.id ? [row.id] : [])),
      timeZone,
    ),
    // "Update available" (ADR 075): a version newer than the purchase, not downloaded yet.
    agentIds.length > 0
      ? supabase
          .rpc('agent_updates', { agent_ids: agentIds }, { get: true })
          .then((result) => unwrap(result, { what: 'agent updates', unavailable: COLLECTION_UNAVAILABLE_MESSAGE }))
      : [],
  ]);
  const updateOf = new Map(
    updates.filter((row) => row.update_available).map((row) => [row.agent_id, row.latest_version]),
  );
  const items = rows.flatMap((row) =>
    // id, agent_id and created_at come from NOT NULL purchase columns.
    row.id && row.agent_id && row.created_at
      ? [
          {
            purchaseId: row.id,
            agentId: row.agent_id,
            name: row.agent_name ?? 'Unnamed agent',
            description: row.agent_description ?? '',
            thumbnailUrl: row.agent_thumbnail,
            category: row.agent_category ?? '',
            sellerName: row.seller_username && sellerName(row.seller_username, row.seller_display_name),
            rating: row.user_rating === null ? null : Number(row.user_rating),
            amount: Number(row.amount ?? 0),
            purchasedOn: formatDate(row.created_at, timeZone),
            license: licenses.get(row.id) ?? null,
            updateVersion: updateOf.get(row.agent_id) ?? null,
          },
        ]
      : [],
  );
  return { items, page: shown, total };
}

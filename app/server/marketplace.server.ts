/**
 * The marketplace query: filters, sort, count and one page, all done by the database through
 * the Data API; plus the per-category counts under the other active filters (an RPC). Both read
 * published agents only, through the anonymous client, and are shared for a few seconds.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { toAgentSummary, type AgentSummary, type AgentSummaryRow } from '~/lib/agents';
import type { CategoryName } from '~/lib/categories';
import { MAX_PRICE, PAGE_SIZE, searchTerm, type MarketplaceParams, type SortOption } from '~/lib/marketplace-params';
import { catalogueFailure, getCatalogueCounts, publishedSummaries, sharedCatalogueRead } from '~/server/agents.server';
import { unwrap } from '~/server/http-errors.server';

const SORT_COLUMNS: Record<SortOption, { column: string; ascending: boolean }> = {
  newest: { column: 'created_at', ascending: false },
  popular: { column: 'purchase_count', ascending: false },
  'price-low': { column: 'price', ascending: true },
  'price-high': { column: 'price', ascending: false },
  rating: { column: 'avg_rating', ascending: false },
};

export interface MarketplaceResult {
  agents: AgentSummary[];
  /** Agents matching the current filters. */
  total: number;
  /** Every published agent, for the heading. */
  publishedTotal: number;
  /** Per category, under the other active filters (search, price, rating). */
  categoryCounts: Record<CategoryName, number>;
  /** The page was past the end of the results. */
  isPastEnd: boolean;
}

export async function searchMarketplace(
  supabase: SupabaseClient,
  params: MarketplaceParams,
): Promise<MarketplaceResult> {
  const term = searchTerm(params.q);
  const [page, { categoryCounts, publishedTotal }] = await Promise.all([
    sharedCatalogueRead(pageKey(params, term), () => queryPage(supabase, params, term)),
    getCatalogueCounts(supabase, {
      search: term || null,
      maxPrice: params.maxPrice < MAX_PRICE ? params.maxPrice : null,
      minRating: params.minRating > 0 ? params.minRating : null,
    }),
  ]);
  // The counts apply the same search, price and rating filters as the page query, so the
  // matching total is one of them (or their sum): the page query needs no count of its own.
  const total = params.category
    ? categoryCounts[params.category]
    : Object.values(categoryCounts).reduce((sum, count) => sum + count, 0);
  return { agents: page, total, isPastEnd: page.length === 0 && total > 0, publishedTotal, categoryCounts };
}

function pageKey({ category, maxPrice, minRating, sort, page }: MarketplaceParams, term: string): string {
  return `marketplace:${JSON.stringify([term, category, maxPrice, minRating, sort, page])}`;
}

async function queryPage(supabase: SupabaseClient, params: MarketplaceParams, term: string): Promise<AgentSummary[]> {
  let query = publishedSummaries(supabase);
  if (term) {
    const pattern = `*${term}*`;
    query = query.or(`name.ilike.${pattern},description.ilike.${pattern},category.ilike.${pattern}`);
  }
  if (params.category) query = query.eq('category', params.category);
  if (params.maxPrice < MAX_PRICE) query = query.lte('price', params.maxPrice);
  if (params.minRating > 0) query = query.gte('avg_rating', params.minRating);
  const sort = SORT_COLUMNS[params.sort];
  const from = (params.page - 1) * PAGE_SIZE;
  const result = await query
    .order(sort.column, { ascending: sort.ascending })
    .order('id', { ascending: true })
    .range(from, from + PAGE_SIZE - 1)
    .overrideTypes<AgentSummaryRow[], { merge: false }>();
  // Past the last page a Data API may answer 416 (PGRST103): that is an empty page, not an error.
  if (result.error?.code === 'PGRST103') return [];
  return unwrap(result, catalogueFailure('marketplace page')).map(toAgentSummary);
}

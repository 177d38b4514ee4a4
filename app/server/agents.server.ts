/**
 * Reads of the catalogue through the Data API. Filtering, sorting, counting and paging all
 * happen in the database.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { AGENT_SUMMARY_COLUMNS, toAgentSummary, type AgentSummary, type AgentSummaryRow } from '~/lib/agents';
import { CATEGORIES, type CategoryName } from '~/lib/categories';
import { createTtlCache } from '~/server/ttl-cache.server';

export class CatalogueError extends Error {
  override name = 'CatalogueError';
}

function published(supabase: SupabaseClient, columns: string, options?: { count?: 'exact'; head?: boolean }) {
  return supabase.from('agents_with_stats').select(columns, options).eq('status', 'published');
}

/** The best-rated published agents (rating, then number of reviews, then newest). */
export async function listFeaturedAgents(supabase: SupabaseClient, limit = 5): Promise<AgentSummary[]> {
  const { data, error } = await published(supabase, AGENT_SUMMARY_COLUMNS)
    .order('avg_rating', { ascending: false, nullsFirst: false })
    .order('review_count', { ascending: false })
    .order('id')
    .limit(limit)
    .overrideTypes<AgentSummaryRow[], { merge: false }>();
  if (error) throw new CatalogueError(error.message);
  return data.map(toAgentSummary);
}

export interface CatalogueFilters {
  search: string | null;
  maxPrice: number | null;
  minRating: number | null;
}

export interface CatalogueCounts {
  /** Published agents per category under the filters. */
  categoryCounts: Record<CategoryName, number>;
  /** Every published agent, whatever the filters. */
  publishedTotal: number;
}

const NO_FILTERS: CatalogueFilters = { search: null, maxPrice: null, minRating: null };

/**
 * Category counts and the published total are the same for every visitor (published agents
 * only), so they are shared for a few seconds between requests with the same filters.
 */
const countsCache = createTtlCache<CatalogueCounts>({ ttlMs: 5_000, maxEntries: 1_000 });

/** Published agents per category under search, price and rating filters (one RPC). */
export function getCatalogueCounts(supabase: SupabaseClient, filters = NO_FILTERS): Promise<CatalogueCounts> {
  return countsCache.get(JSON.stringify(filters), () => loadCounts(supabase, filters));
}

async function loadCounts(supabase: SupabaseClient, filters: CatalogueFilters): Promise<CatalogueCounts> {
  const narrowed = filters.search !== null || filters.maxPrice !== null || filters.minRating !== null;
  const [counts, published] = await Promise.all([
    supabase.rpc('category_counts', {
      search: filters.search,
      max_price: filters.maxPrice,
      min_rating: filters.minRating,
    }),
    // Without search, price or rating filters the category counts already add up to the total.
    narrowed ? supabase.from('agents').select('id', { count: 'exact', head: true }).eq('status', 'published') : null,
  ]);
  if (counts.error) throw new CatalogueError(counts.error.message);
  if (published?.error) throw new CatalogueError(published.error.message);
  const categoryCounts = Object.fromEntries(CATEGORIES.map((category) => [category.name, 0])) as Record<
    CategoryName,
    number
  >;
  for (const row of counts.data as { category: CategoryName; agent_count: number | string }[]) {
    categoryCounts[row.category] = Number(row.agent_count);
  }
  const countsTotal = Object.values(categoryCounts).reduce((sum, count) => sum + count, 0);
  return { categoryCounts, publishedTotal: published ? (published.count ?? 0) : countsTotal };
}

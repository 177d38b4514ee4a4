/**
 * Reads of the published catalogue through the Data API. Filtering, sorting, counting and paging
 * all happen in the database. What they return is the same for every visitor, so they run on the
 * anonymous client (`publicSupabase`) and are shared between requests for a few seconds
 * (docs/decisions/008-shared-reads.md); a write that changes the catalogue calls `forgetCatalogue`.
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
export function listFeaturedAgents(supabase: SupabaseClient, limit = 5): Promise<AgentSummary[]> {
  return sharedCatalogueRead(`featured:${limit}`, () => loadFeaturedAgents(supabase, limit));
}

async function loadFeaturedAgents(supabase: SupabaseClient, limit: number): Promise<AgentSummary[]> {
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

/** How long a read of the published catalogue is shared between requests. */
export const CATALOGUE_TTL_MS = 5_000;

const catalogueCache = createTtlCache<unknown>({ ttlMs: CATALOGUE_TTL_MS, maxEntries: 2_000 });

/**
 * `load` once per `key` for CATALOGUE_TTL_MS, shared by every request. Only for reads whose
 * result does not depend on who asks: published agents through the anonymous client.
 */
export function sharedCatalogueRead<T>(key: string, load: () => Promise<T>): Promise<T> {
  return catalogueCache.get(key, load) as Promise<T>;
}

/** After a write to the catalogue: the next reads see it at once in this process. */
export function forgetCatalogue(): void {
  catalogueCache.clear();
}

/** Published agents per category under search, price and rating filters (one RPC). */
export function getCatalogueCounts(supabase: SupabaseClient, filters = NO_FILTERS): Promise<CatalogueCounts> {
  return sharedCatalogueRead(`counts:${JSON.stringify(filters)}`, () => loadCounts(supabase, filters));
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

/**
 * Reads of the published catalogue through the Data API. Filtering, sorting, counting and paging
 * all happen in the database. What they return is the same for every visitor, so they run on the
 * anonymous client (`publicSupabase`) and are shared between requests for a few seconds
 * (docs/decisions/008-shared-reads.md); a write that changes the catalogue calls `forgetCatalogue`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { AGENT_SUMMARY_COLUMNS, toAgentSummary, type AgentSummary, type AgentSummaryRow } from '~/lib/agents';
import { CATEGORIES, type CategoryName } from '~/lib/categories';
import { unwrap } from '~/server/http-errors.server';
import { createTtlCache } from '~/server/ttl-cache.server';

/** What a page says when the catalogue cannot be read (a 503, `unwrap`). */
export const CATALOGUE_UNAVAILABLE_MESSAGE = 'We could not load the catalogue right now. Please try again in a moment.';
export const catalogueFailure = (what: string) => ({ what, unavailable: CATALOGUE_UNAVAILABLE_MESSAGE });

/** Published agents as cards show them, for a query to filter, order and page further. */
export function publishedSummaries(supabase: SupabaseClient) {
  return supabase.from('agents_with_stats').select(AGENT_SUMMARY_COLUMNS).eq('status', 'published');
}

/** The best-rated published agents (rating, then number of reviews, then newest). */
export function listFeaturedAgents(supabase: SupabaseClient, limit = 5): Promise<AgentSummary[]> {
  return sharedCatalogueRead(`featured:${limit}`, () => loadFeaturedAgents(supabase, limit));
}

async function loadFeaturedAgents(supabase: SupabaseClient, limit: number): Promise<AgentSummary[]> {
  const rows = unwrap(
    await publishedSummaries(supabase)
      .order('avg_rating', { ascending: false, nullsFirst: false })
      .order('review_count', { ascending: false })
      .order('id')
      .limit(limit)
      .overrideTypes<AgentSummaryRow[], { merge: false }>(),
    catalogueFailure('featured agents'),
  );
  return rows.map(toAgentSummary);
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
const CATALOGUE_TTL_MS = 5_000;

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

/**
 * Published agents per category under search, price and rating filters, and every published
 * agent (the six categories cover them all, so that is the sum of the unfiltered counts, which
 * the home and categories pages share).
 */
export async function getCatalogueCounts(supabase: SupabaseClient, filters = NO_FILTERS): Promise<CatalogueCounts> {
  const narrowed = filters.search !== null || filters.maxPrice !== null || filters.minRating !== null;
  const [categoryCounts, unfiltered] = await Promise.all([
    countsPerCategory(supabase, filters),
    narrowed ? countsPerCategory(supabase, NO_FILTERS) : null,
  ]);
  const publishedTotal = Object.values(unfiltered ?? categoryCounts).reduce((sum, count) => sum + count, 0);
  return { categoryCounts, publishedTotal };
}

function countsPerCategory(supabase: SupabaseClient, filters: CatalogueFilters): Promise<Record<CategoryName, number>> {
  return sharedCatalogueRead(`counts:${JSON.stringify(filters)}`, async () => {
    const data = unwrap(
      await supabase.rpc('category_counts', {
        search: filters.search,
        max_price: filters.maxPrice,
        min_rating: filters.minRating,
      }),
      catalogueFailure('category counts'),
    );
    const counts = Object.fromEntries(CATEGORIES.map((category) => [category.name, 0])) as Record<CategoryName, number>;
    for (const row of data as { category: CategoryName; agent_count: number | string }[]) {
      counts[row.category] = Number(row.agent_count);
    }
    return counts;
  });
}

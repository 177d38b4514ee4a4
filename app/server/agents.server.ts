/**
 * Reads of the published catalogue through the Data API. Filtering, sorting, counting and paging
 * all happen in the database. What they return is the same for every visitor, so they run on the
 * anonymous client (`publicSupabase`) and are shared between requests for a few seconds
 * (docs/decisions/008-shared-reads.md); a write that changes the catalogue calls `forgetCatalogue`.
 */
import type { AppSupabaseClient } from '~/server/supabase.server';
import { AGENT_SUMMARY_COLUMNS, toAgentSummary, type AgentSummary, type AgentSummaryRow } from '~/lib/agents';
import { CATEGORY_COLUMNS, categoryBySlug, type Category } from '~/lib/categories';
import type { CatalogueFilters } from '~/lib/marketplace-params';
import type { PlatformFigures } from '~/lib/platform-figures';
import { unwrap } from '~/server/http-errors.server';
import { createTtlCache } from '~/server/ttl-cache.server';

/** What a page says when the catalogue cannot be read (a 503, `unwrap`). */
export const CATALOGUE_UNAVAILABLE_MESSAGE = 'We could not load the catalogue right now. Please try again in a moment.';
export const catalogueFailure = (what: string) => ({ what, unavailable: CATALOGUE_UNAVAILABLE_MESSAGE });

/** Published agents as cards show them, for a query to filter, order and page further. */
export function publishedSummaries(supabase: AppSupabaseClient) {
  return supabase.from('agents_with_stats').select(AGENT_SUMMARY_COLUMNS).eq('status', 'published');
}

/** The best-rated published agents (rating, then number of reviews, then newest). */
export function listFeaturedAgents(supabase: AppSupabaseClient, limit = 5): Promise<AgentSummary[]> {
  return sharedCatalogueRead(`featured:${limit}`, () => loadFeaturedAgents(supabase, limit));
}

async function loadFeaturedAgents(supabase: AppSupabaseClient, limit: number): Promise<AgentSummary[]> {
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

export interface CatalogueCounts {
  /** Published agents per category name under the filters; every category is present. */
  categoryCounts: Record<string, number>;
  /** Every published agent, whatever the filters. */
  publishedTotal: number;
}

/** The filters category_counts applies: all of them but the category. */
export type CountFilters = Omit<CatalogueFilters, 'category'>;

const NO_COUNT_FILTERS: CountFilters = { q: null, maxPrice: null, minRating: null };

/**
 * The arguments of `public.catalogue_agents` (and, without a category, of `category_counts`)
 * for `filters`: the one mapping from the app's filters to the database's. The category's URL
 * slug becomes its name, as agents store it. "No filter" (null) is left out, so the function
 * gets its default NULL; the client sends them as GET query arguments, which lets Postgres
 * inline the function with constants (ADR 011).
 */
export function catalogueArgs(filters: Partial<CatalogueFilters>, categories: readonly Category[] = []) {
  return {
    search: filters.q ?? undefined,
    category: categoryBySlug(categories, filters.category)?.name,
    max_price: filters.maxPrice ?? undefined,
    min_rating: filters.minRating ?? undefined,
  };
}

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

/** The categories in display order, from the `public.categories` table (ADR 011). */
export function listCategories(supabase: AppSupabaseClient): Promise<Category[]> {
  return sharedCatalogueRead('categories', async () => {
    return unwrap(
      await supabase
        .from('categories')
        .select(CATEGORY_COLUMNS)
        .order('position')
        .order('name')
        .overrideTypes<Category[], { merge: false }>(),
      catalogueFailure('categories'),
    );
  });
}

/**
 * Published agents per category under search, price and rating filters, and every published
 * agent (every agent has a category, so that is the sum of the unfiltered counts, which the
 * home and categories pages share).
 */
export async function getCatalogueCounts(
  supabase: AppSupabaseClient,
  filters: CountFilters = NO_COUNT_FILTERS,
): Promise<CatalogueCounts> {
  const narrowed = filters.q !== null || filters.maxPrice !== null || filters.minRating !== null;
  const [categoryCounts, unfiltered] = await Promise.all([
    countsPerCategory(supabase, filters),
    narrowed ? countsPerCategory(supabase, NO_COUNT_FILTERS) : null,
  ]);
  return { categoryCounts, publishedTotal: sumOf(unfiltered ?? categoryCounts) };
}

/** The home page's figures: what the marketplace lists, counted in SQL (`platform_figures`). */
export function getPlatformFigures(supabase: AppSupabaseClient): Promise<PlatformFigures> {
  return sharedCatalogueRead('platform-figures', async () => {
    const rows = unwrap(
      await supabase.rpc('platform_figures', undefined, { get: true }),
      catalogueFailure('platform figures'),
    );
    const row = rows[0];
    return {
      agentCount: Number(row?.agent_count ?? 0),
      sellerCount: Number(row?.seller_count ?? 0),
      purchaseCount: Number(row?.purchase_count ?? 0),
      reviewCount: Number(row?.review_count ?? 0),
      avgRating: row?.avg_rating === null || row?.avg_rating === undefined ? null : Number(row.avg_rating),
    };
  });
}

export function sumOf(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

function countsPerCategory(supabase: AppSupabaseClient, filters: CountFilters): Promise<Record<string, number>> {
  const { q, maxPrice, minRating } = filters;
  return sharedCatalogueRead(`counts:${JSON.stringify([q, maxPrice, minRating])}`, async () => {
    // The same arguments as the page query's, without the category: counts are per category.
    const data = unwrap(
      await supabase.rpc('category_counts', catalogueArgs(filters), { get: true }),
      catalogueFailure('category counts'),
    );
    // category_counts lists every category of the table, in display order, 0 when none match.
    const rows = data as { category: string; agent_count: number | string }[];
    return Object.fromEntries(rows.map((row) => [row.category, Number(row.agent_count)]));
  });
}

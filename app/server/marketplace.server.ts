/**
 * The marketplace query: one page of published agents under the filters, and the per-category
 * counts under the same filters but the category. In the database both apply one definition of
 * the filters and the search (`public.catalogue_matches`): without a search the page through
 * `catalogue_listing` and the counts through `category_counts`; with one, both in one call to
 * `catalogue_search` (ADR 064). The arguments come from one function, `catalogueArgs` (ADR 011).
 * A failed read is a 503 (`unwrap`, app/server/http-errors.server.ts). All read published agents
 * only, through the anonymous client, and are shared for a few seconds.
 */
import type { AppSupabaseClient } from '~/server/supabase.server';
import { AGENT_SUMMARY_COLUMNS, toAgentSummary, type AgentSummary, type AgentSummaryRow } from '~/lib/agents';
import { categoryBySlug, type Category } from '~/lib/categories';
import { PAGE_SIZE, type MarketplaceParams, type SortOption } from '~/lib/marketplace-params';
import {
  catalogueArgs,
  catalogueFailure,
  getCatalogueCounts,
  sharedCatalogueRead,
  sumOf,
} from '~/server/agents.server';
import { unwrap } from '~/server/http-errors.server';
import { pageCount } from '~/lib/pagination';

/**
 * Each order's columns without a search, before the id that makes it total. "Best match" needs a
 * search (the parser gives the default order without one), and is catalogue_search's.
 */
const SORT_COLUMNS: Record<Exclude<SortOption, 'relevance'>, { column: string; ascending: boolean }[]> = {
  newest: [{ column: 'created_at', ascending: false }],
  popular: [{ column: 'purchase_count', ascending: false }],
  'price-low': [{ column: 'price', ascending: true }],
  'price-high': [{ column: 'price', ascending: false }],
  rating: [{ column: 'avg_rating', ascending: false }],
};

export interface MarketplaceResult {
  agents: AgentSummary[];
  /** Agents matching the current filters. */
  total: number;
  /** Every published agent, for the heading. */
  publishedTotal: number;
  /** Agents matching the other filters (search, price, rating) in every category: the "All" row. */
  categoryTotal: number;
  /** Per category name, under the other active filters (search, price, rating). */
  categoryCounts: Record<string, number>;
  /** The page was past the end of the results (or past page 1 of none). */
  isPastEnd: boolean;
  /** With a search that found nothing: the same search spelled as the catalogue spells it, if that finds something. */
  didYouMean: string | null;
}

export async function searchMarketplace(
  supabase: AppSupabaseClient,
  params: MarketplaceParams,
  categories: readonly Category[],
): Promise<MarketplaceResult> {
  const [{ agents, categoryCounts }, publishedTotal] = await Promise.all([
    params.q === null ? browse(supabase, params, categories) : search(supabase, params, categories),
    getCatalogueCounts(supabase).then((counts) => counts.publishedTotal),
  ]);
  // The counts apply the same search, price and rating filters as the page query, so the
  // matching total is one of them (or their sum): the page query needs no count of its own.
  const category = categoryBySlug(categories, params.category);
  const categoryTotal = sumOf(categoryCounts);
  const total = category ? (categoryCounts[category.name] ?? 0) : categoryTotal;
  return {
    agents,
    total,
    isPastEnd: params.page > pageCount(total, PAGE_SIZE),
    publishedTotal,
    categoryTotal,
    categoryCounts,
    didYouMean: params.q !== null && categoryTotal === 0 ? await didYouMean(supabase, params.q) : null,
  };
}

interface PageAndCounts {
  agents: AgentSummary[];
  categoryCounts: Record<string, number>;
}

/** Without a search: the page (catalogue_listing, in a sort index's order) and the counts, each shared. */
async function browse(
  supabase: AppSupabaseClient,
  params: MarketplaceParams,
  categories: readonly Category[],
): Promise<PageAndCounts> {
  const [agents, { categoryCounts }] = await Promise.all([
    sharedCatalogueRead(pageKey(params), () => queryPage(supabase, params, categories)),
    getCatalogueCounts(supabase, { q: null, maxPrice: params.maxPrice, minRating: params.minRating }),
  ]);
  return { agents, categoryCounts };
}

/**
 * With a search: the page and the counts in one call (public.catalogue_search, ADR 064), so the
 * search is parsed and matched once per request.
 */
function search(
  supabase: AppSupabaseClient,
  params: MarketplaceParams,
  categories: readonly Category[],
): Promise<PageAndCounts> {
  return sharedCatalogueRead(pageKey(params), async () => {
    const { search: query, ...filters } = catalogueArgs(params, categories);
    const data = unwrap(
      await supabase.rpc(
        'catalogue_search',
        {
          search: query ?? '',
          ...filters,
          sort: params.sort,
          page_from: (params.page - 1) * PAGE_SIZE,
          page_size: PAGE_SIZE,
        },
        { get: true },
      ),
      catalogueFailure('marketplace search'),
    ) as unknown as { agents: AgentSummaryRow[]; counts: Record<string, number> };
    return {
      agents: data.agents.map(toAgentSummary),
      // Every category, 0 where nothing matches (as category_counts gives them).
      categoryCounts: Object.fromEntries(categories.map(({ name }) => [name, Number(data.counts[name] ?? 0)])),
    };
  });
}

/** public.search_did_you_mean: the query with each unknown word replaced by the closest catalogue word. */
function didYouMean(supabase: AppSupabaseClient, q: string): Promise<string | null> {
  return sharedCatalogueRead(`did-you-mean:${q}`, async () =>
    unwrap(
      await supabase.rpc('search_did_you_mean', { search: q }, { get: true }),
      catalogueFailure('search suggestion'),
    ),
  );
}

function pageKey({ q, category, maxPrice, minRating, sort, page }: MarketplaceParams): string {
  return `marketplace:${JSON.stringify([q, category, maxPrice, minRating, sort, page])}`;
}

async function queryPage(
  supabase: AppSupabaseClient,
  params: MarketplaceParams,
  categories: readonly Category[],
): Promise<AgentSummary[]> {
  const from = (params.page - 1) * PAGE_SIZE;
  const { search: _none, ...filters } = catalogueArgs(params, categories);
  // catalogue_listing: the page's order reaches the sort indexes (ADR 062).
  let query = supabase.rpc('catalogue_listing', filters, { get: true }).select(AGENT_SUMMARY_COLUMNS);
  // An agent nobody has rated (avg_rating NULL) comes after every rated one. The other columns
  // are never NULL, and their order is left as the sort indexes keep it (DESC puts NULLs first).
  const sort = params.sort === 'relevance' ? 'newest' : params.sort; // the parser never gives it here
  for (const { column, ascending } of SORT_COLUMNS[sort])
    query = query.order(column, column === 'avg_rating' ? { ascending, nullsFirst: false } : { ascending });
  const result = await query.order('id', { ascending: true }).range(from, from + PAGE_SIZE - 1);
  // Past the last page a Data API may answer 416 (PGRST103): that is an empty page, not an error.
  if (result.error?.code === 'PGRST103') return [];
  return (unwrap(result, catalogueFailure('marketplace page')) as unknown as AgentSummaryRow[]).map(toAgentSummary);
}

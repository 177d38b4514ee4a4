/**
 * The marketplace query: one page of published agents under the filters, and the per-category
 * counts under the same filters but the category. In the database both apply one definition of
 * the filters (`public.matches_catalogue_filters`: the page through `catalogue_agents`, the
 * counts through `category_counts`), with the arguments of one function, `catalogueArgs`
 * (ADR 011). A failed read is a 503 (`unwrap`, app/server/http-errors.server.ts). Both read
 * published agents only, through the anonymous client, and are shared for a few seconds.
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

/** Each order's columns, before the id that makes it total. */
const SORT_COLUMNS: Record<SortOption, { column: string; ascending: boolean }[]> = {
  // The best match first (public.search_rank), the most bought first among equals.
  relevance: [
    { column: 'search_rank', ascending: false },
    { column: 'purchase_count', ascending: false },
  ],
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
  const [page, { categoryCounts, publishedTotal }] = await Promise.all([
    sharedCatalogueRead(pageKey(params), () => queryPage(supabase, params, categories)),
    getCatalogueCounts(supabase, { q: params.q, maxPrice: params.maxPrice, minRating: params.minRating }),
  ]);
  // The counts apply the same search, price and rating filters as the page query, so the
  // matching total is one of them (or their sum): the page query needs no count of its own.
  const category = categoryBySlug(categories, params.category);
  const categoryTotal = sumOf(categoryCounts);
  const total = category ? (categoryCounts[category.name] ?? 0) : categoryTotal;
  return {
    agents: page,
    total,
    isPastEnd: params.page > pageCount(total, PAGE_SIZE),
    publishedTotal,
    categoryTotal,
    categoryCounts,
    didYouMean: params.q !== null && categoryTotal === 0 ? await didYouMean(supabase, params.q) : null,
  };
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
  const { search, ...filters } = catalogueArgs(params, categories);
  // Without a search, catalogue_listing: the same rows, and the page's order reaches the sort
  // indexes (ADR 062); with one, catalogue_agents and its search_rank.
  let query = (
    search === undefined
      ? supabase.rpc('catalogue_listing', filters, { get: true })
      : supabase.rpc('catalogue_agents', { search, ...filters }, { get: true })
  ).select(AGENT_SUMMARY_COLUMNS);
  // An agent nobody has rated (avg_rating NULL) comes after every rated one.
  for (const { column, ascending } of SORT_COLUMNS[params.sort])
    query = query.order(column, { ascending, nullsFirst: false });
  const result = await query.order('id', { ascending: true }).range(from, from + PAGE_SIZE - 1);
  // Past the last page a Data API may answer 416 (PGRST103): that is an empty page, not an error.
  if (result.error?.code === 'PGRST103') return [];
  return (unwrap(result, catalogueFailure('marketplace page')) as unknown as AgentSummaryRow[]).map(toAgentSummary);
}

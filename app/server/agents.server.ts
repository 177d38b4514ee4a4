/**
 * Reads of the catalogue through the Data API. Filtering, sorting, counting and paging all
 * happen in the database.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { AGENT_SUMMARY_COLUMNS, toAgentSummary, type AgentSummary, type AgentSummaryRow } from '~/lib/agents';
import { CATEGORIES, type CategoryName } from '~/lib/categories';

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

/** Published agents per category, counted in the database. */
export async function countPublishedByCategory(supabase: SupabaseClient): Promise<Record<CategoryName, number>> {
  const results = await Promise.all(
    CATEGORIES.map((category) =>
      supabase
        .from('agents')
        .select('id', { count: 'exact', head: true })
        .eq('status', 'published')
        .eq('category', category.name),
    ),
  );
  const counts = {} as Record<CategoryName, number>;
  results.forEach((result, index) => {
    if (result.error) throw new CatalogueError(result.error.message);
    counts[CATEGORIES[index]!.name] = result.count ?? 0;
  });
  return counts;
}

/**
 * Suggestions as you type (ADR 063): agents, categories and creators whose names begin like the
 * text, from `public.search_suggestions` (ADR 062) on the anonymous client. The same for every
 * visitor, so a read is shared between requests like the rest of the catalogue (ADR 008).
 */
import { catalogueFailure, sharedCatalogueRead } from '~/server/agents.server';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { isSuggestionKind, suggestionHref, SUGGESTIONS_PER_KIND, type Suggestion } from '~/lib/search-suggestions';

/** `query`: already read by `suggestionQuery`, at least MIN_SUGGESTION_LENGTH characters. */
export function searchSuggestions(supabase: AppSupabaseClient, query: string): Promise<Suggestion[]> {
  return sharedCatalogueRead(`suggestions:${query}`, async () => {
    const rows = unwrap(
      await supabase.rpc('search_suggestions', { search: query, max_per_kind: SUGGESTIONS_PER_KIND }, { get: true }),
      catalogueFailure('search suggestions'),
    );
    return rows.flatMap(({ kind, label, value, detail }) =>
      isSuggestionKind(kind) ? [{ kind, label, value, detail: detail ?? null, href: suggestionHref(kind, value) }] : [],
    );
  });
}

import { connectionContext } from '~/context';
import { MIN_SUGGESTION_LENGTH, suggestionQuery, type SuggestionsAnswer } from '~/lib/search-suggestions';
import { unavailableMessage } from '~/server/http-errors.server';
import { searchSuggestions } from '~/server/search-suggestions.server';
import { publicSupabase } from '~/server/supabase.server';
import type { Route } from './+types/search-suggestions';

/**
 * `GET /search/suggestions?q=…`: the search boxes' suggestions as you type, as JSON (ADR 063).
 * `q` is read as the marketplace reads it (trimmed, cut to its length); under two characters the
 * answer is an empty list without a database call. A NUL in the URL never gets here: the root
 * middleware answers it with the app's 400 (app/server/request-input.server.ts). A failed read is a
 * 503 with a JSON message, never a page. The same for everyone: a browser may keep an answer for
 * 30 seconds (the combobox asks without cookies, so a session's `no-store` does not apply).
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const query = suggestionQuery(url.searchParams.get('q'));
  if (query.length < MIN_SUGGESTION_LENGTH) return answer(200, { query, suggestions: [] });
  try {
    const suggestions = await searchSuggestions(publicSupabase(context.get(connectionContext)), query);
    return answer(200, { query, suggestions });
  } catch (thrown) {
    const message = unavailableMessage(thrown);
    if (message === null) throw thrown;
    return answer(503, { error: message });
  }
}

function answer(status: number, body: SuggestionsAnswer | { error: string }): Response {
  return Response.json(body, {
    status,
    headers: {
      'Cache-Control': status === 200 ? 'private, max-age=30' : 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/**
 * Suggestions as you type (ADR 063): what `GET /search/suggestions?q=…` answers and where each
 * suggestion leads. Shared by the resource route (app/routes/resources/search-suggestions.ts) and
 * the search combobox (app/components/search/search-combobox.tsx); the matching itself is the
 * database's, `public.search_suggestions` (ADR 062).
 */
import { MAX_SEARCH_LENGTH, marketplaceHref } from '~/lib/marketplace-params';
import { storefrontHref } from '~/lib/sellers';

export const SUGGESTIONS_PATH = '/search/suggestions';
/** Fewer characters than this suggest nothing (the database's own limit too). */
export const MIN_SUGGESTION_LENGTH = 2;
/** At most this many suggestions of each kind. */
export const SUGGESTIONS_PER_KIND = 5;

export const SUGGESTION_KINDS = ['agent', 'category', 'creator'] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];

/** Each kind as one suggestion names it, and as the heading of its group. */
export const SUGGESTION_KIND_LABELS: Record<SuggestionKind, { one: string; group: string }> = {
  agent: { one: 'Agent', group: 'Agents' },
  category: { one: 'Category', group: 'Categories' },
  creator: { one: 'Creator', group: 'Creators' },
};

export interface Suggestion {
  kind: SuggestionKind;
  /** What to show: the agent's or category's name, the creator's name as cards show it. */
  label: string;
  /** The agent's id, the category's slug, the creator's username. */
  value: string;
  /** The agent's category, the creator's username; null for a category. */
  detail: string | null;
  /** Where choosing it goes. */
  href: string;
}

export interface SuggestionsAnswer {
  /** The text the suggestions are for, as the server read it (`suggestionQuery`). */
  query: string;
  suggestions: Suggestion[];
}

/** The search text as the marketplace reads it: trimmed, at most MAX_SEARCH_LENGTH characters. */
export function suggestionQuery(typed: string | null | undefined): string {
  // A cut between the two halves of a character (an emoji) leaves no half behind.
  return (typed ?? '')
    .trim()
    .slice(0, MAX_SEARCH_LENGTH)
    .replace(/[\uD800-\uDBFF]$/, '');
}

export function isSuggestionKind(kind: string): kind is SuggestionKind {
  return (SUGGESTION_KINDS as readonly string[]).includes(kind);
}

/** Where a suggestion goes: the agent page, the marketplace in that category, the storefront. */
export function suggestionHref(kind: SuggestionKind, value: string): string {
  switch (kind) {
    case 'agent':
      return `/agent/${encodeURIComponent(value)}`;
    case 'category':
      return marketplaceHref({ category: value });
    case 'creator':
      return storefrontHref(value);
  }
}

/** The URL the combobox asks for `query`'s suggestions. */
export function suggestionsUrl(query: string): string {
  return `${SUGGESTIONS_PATH}?${new URLSearchParams({ q: query })}`;
}

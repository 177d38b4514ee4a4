/**
 * The marketplace's state lives in the URL (docs/product.md, "Public pages"): its options, defaults and
 * canonical form. The server parses it (marketplace-params.server.ts), leniently: an invalid or
 * unknown value falls back to its default and never causes an error. The canonical URL drops
 * defaults.
 *
 * "No filter" is `null` from the URL to SQL (ADR 011): a missing or default filter parses to
 * null, the canonical URL leaves it out, and the database call leaves its argument out, so
 * `public.catalogue_agents` gets its default NULL.
 */

export const PAGE_SIZE = 24;
/** The price slider's top, which means "any price". */
export const MAX_PRICE = 300;
/** The minimum ratings one can choose (none chosen = any rating). */
export const MIN_RATING_OPTIONS = [3, 4, 4.5] as const;
export const MAX_SEARCH_LENGTH = 100;

export const SORT_OPTIONS = [
  // Offered with a search only, where it is the default order (public.search_rank).
  { value: 'relevance', label: 'Best match' },
  { value: 'newest', label: 'Newest' },
  { value: 'popular', label: 'Most Popular' },
  { value: 'price-low', label: 'Price: Low to High' },
  { value: 'price-high', label: 'Price: High to Low' },
  { value: 'rating', label: 'Highest Rated' },
] as const;

export type SortOption = (typeof SORT_OPTIONS)[number]['value'];
export type MarketplaceView = 'grid' | 'list';

/** The filters of the catalogue, as `public.catalogue_agents` takes them; null = no filter. */
export interface CatalogueFilters {
  /** Search text, trimmed, at most MAX_SEARCH_LENGTH characters. */
  q: string | null;
  /** A category's slug (its URL value). */
  category: string | null;
  /** Highest price, inclusive, below MAX_PRICE. */
  maxPrice: number | null;
  /** Lowest average rating, one of MIN_RATING_OPTIONS. */
  minRating: number | null;
}

export interface MarketplaceParams extends CatalogueFilters {
  sort: SortOption;
  view: MarketplaceView;
  page: number;
}

export const NO_FILTERS: CatalogueFilters = { q: null, category: null, maxPrice: null, minRating: null };

export const DEFAULT_PARAMS: MarketplaceParams = { ...NO_FILTERS, sort: 'newest', view: 'grid', page: 1 };

/** The order when none is chosen: "Best match" with a search, else the newest first. */
export function defaultSort(q: string | null): SortOption {
  return q === null ? DEFAULT_PARAMS.sort : 'relevance';
}

/** The sort options to offer: "Best match" only with a search. */
export function sortOptions(q: string | null) {
  return q === null ? SORT_OPTIONS.filter((option) => option.value !== 'relevance') : SORT_OPTIONS;
}

/** The canonical query string for `params`: defaults dropped, fixed order. */
export function marketplaceSearch(params: Partial<MarketplaceParams>): string {
  const full = { ...DEFAULT_PARAMS, ...params };
  const query = new URLSearchParams();
  if (full.q !== null) query.set('q', full.q);
  if (full.category !== null) query.set('category', full.category);
  if (full.maxPrice !== null) query.set('maxPrice', String(full.maxPrice));
  if (full.minRating !== null) query.set('minRating', String(full.minRating));
  if (full.sort !== defaultSort(full.q)) query.set('sort', full.sort);
  if (full.view !== DEFAULT_PARAMS.view) query.set('view', full.view);
  if (full.page !== DEFAULT_PARAMS.page) query.set('page', String(full.page));
  const search = query.toString();
  return search ? `?${search}` : '';
}

/** The parameters in the order of the canonical URL. */
const PARAM_ORDER = ['q', 'category', 'maxPrice', 'minRating', 'sort', 'view', 'page'] as const;

/**
 * Form values that mean "no filter" besides an empty field: the price slider at its top, rating 0.
 * The sort select's default order has the empty value, so that it stays "the default" when the
 * search changes (Best match with a search, Newest without).
 */
const NO_FILTER_VALUES: Partial<Record<(typeof PARAM_ORDER)[number], string>> = {
  maxPrice: String(MAX_PRICE),
  minRating: '0',
  view: DEFAULT_PARAMS.view,
  page: String(DEFAULT_PARAMS.page),
};

/**
 * The canonical query string of the filter form's fields, for navigating without a redirect.
 * The form's controls offer only valid values, so this only drops empty fields and defaults
 * and puts the rest in canonical order; the server still parses whatever arrives.
 */
export function formSearch(fields: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const name of PARAM_ORDER) {
    const value = fields.get(name)?.trim() ?? '';
    if (value !== '' && value !== NO_FILTER_VALUES[name]) query.set(name, value);
  }
  const search = query.toString();
  return search ? `?${search}` : '';
}

export function marketplaceHref(params: Partial<MarketplaceParams>): string {
  return `/marketplace${marketplaceSearch(params)}`;
}

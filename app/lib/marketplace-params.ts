/**
 * The marketplace's state lives in the URL (§2 "Marketplace", §9): its options, defaults and
 * canonical form. The server parses it (marketplace-params.server.ts), leniently: an invalid or
 * unknown value falls back to its default and never causes an error. The canonical URL drops
 * defaults.
 */
import { categorySlug, type CategoryName } from '~/lib/categories';

export const PAGE_SIZE = 24;
export const MAX_PRICE = 300;
export const MIN_RATING_OPTIONS = [0, 3, 4, 4.5] as const;
export const MAX_SEARCH_LENGTH = 100;

export const SORT_OPTIONS = [
  { value: 'newest', label: 'Newest' },
  { value: 'popular', label: 'Most Popular' },
  { value: 'price-low', label: 'Price: Low to High' },
  { value: 'price-high', label: 'Price: High to Low' },
  { value: 'rating', label: 'Highest Rated' },
] as const;

export type SortOption = (typeof SORT_OPTIONS)[number]['value'];
export type MarketplaceView = 'grid' | 'list';

export interface MarketplaceParams {
  q: string;
  category: CategoryName | null;
  maxPrice: number;
  minRating: number;
  sort: SortOption;
  view: MarketplaceView;
  page: number;
}

export const DEFAULT_PARAMS: MarketplaceParams = {
  q: '',
  category: null,
  maxPrice: MAX_PRICE,
  minRating: 0,
  sort: 'newest',
  view: 'grid',
  page: 1,
};

/** The canonical query string for `params`: defaults dropped, fixed order. */
export function marketplaceSearch(params: Partial<MarketplaceParams>): string {
  const full = { ...DEFAULT_PARAMS, ...params };
  const query = new URLSearchParams();
  if (full.q) query.set('q', full.q);
  if (full.category) query.set('category', categorySlug(full.category));
  if (full.maxPrice !== DEFAULT_PARAMS.maxPrice) query.set('maxPrice', String(full.maxPrice));
  if (full.minRating !== DEFAULT_PARAMS.minRating) query.set('minRating', String(full.minRating));
  if (full.sort !== DEFAULT_PARAMS.sort) query.set('sort', full.sort);
  if (full.view !== DEFAULT_PARAMS.view) query.set('view', full.view);
  if (full.page !== DEFAULT_PARAMS.page) query.set('page', String(full.page));
  const search = query.toString();
  return search ? `?${search}` : '';
}

/** The parameters in the order of the canonical URL. */
const PARAM_ORDER = ['q', 'category', 'maxPrice', 'minRating', 'sort', 'view', 'page'] as const;

/**
 * The canonical query string of the filter form's fields, for navigating without a redirect.
 * The form's controls offer only valid values, so this only drops empty fields and defaults
 * and puts the rest in canonical order; the server still parses whatever arrives.
 */
export function formSearch(fields: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const name of PARAM_ORDER) {
    const value = fields.get(name)?.trim() ?? '';
    if (value !== '' && value !== String(DEFAULT_PARAMS[name] ?? '')) query.set(name, value);
  }
  const search = query.toString();
  return search ? `?${search}` : '';
}

export function marketplaceHref(params: Partial<MarketplaceParams>): string {
  return `/marketplace${marketplaceSearch(params)}`;
}

/**
 * The search text as the database matches it: characters that are wildcards or syntax in
 * LIKE patterns or in the Data API's filter grammar become spaces, so results and counts agree.
 */
export function searchTerm(q: string): string {
  return q
    .replace(/[%_*\\"(),.:]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

/** Page numbers to link to: first, last, and a window around the current one; gaps as null. */
export function pageWindow(current: number, pages: number, radius = 2): (number | null)[] {
  const result: (number | null)[] = [];
  for (let page = 1; page <= pages; page++) {
    if (page === 1 || page === pages || Math.abs(page - current) <= radius) result.push(page);
    else if (result.at(-1) !== null) result.push(null);
  }
  return result;
}

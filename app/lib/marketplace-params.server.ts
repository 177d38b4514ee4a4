/**
 * Parsing of the marketplace's URL state, on the server only (zod stays out of the page's
 * JavaScript). Every parameter is parsed leniently: an invalid or unknown value falls back to
 * its default and never causes an error. A filter that filters nothing (an empty search, the
 * price slider at its top, rating 0) parses to null, "no filter", like a missing one.
 */
import { z } from 'zod';
import { categoryBySlug, type Category } from '~/lib/categories';
import {
  DEFAULT_PARAMS,
  defaultSort,
  MAX_PRICE,
  MAX_SEARCH_LENGTH,
  MIN_RATING_OPTIONS,
  SORT_OPTIONS,
  type MarketplaceParams,
  type SortOption,
} from '~/lib/marketplace-params';
import { pageParam } from '~/lib/pagination';

// A number in the URL; an empty value is no number (`Number('')` would be 0, a filter).
const lenientNumber = z.string().trim().min(1).pipe(z.coerce.number<string>().refine(Number.isFinite));

/** `categories`: the categories table (listCategories), which decides the valid slugs. */
function paramsSchema(categories: readonly Category[]) {
  return z.object({
    q: z
      .string()
      .transform((value) => value.trim().slice(0, MAX_SEARCH_LENGTH) || null)
      .catch(null),
    category: z
      .string()
      .transform((value) => categoryBySlug(categories, value)?.slug ?? null)
      .catch(null),
    maxPrice: lenientNumber
      .transform((value) => Math.round(Math.max(0, value)))
      .transform((value) => (value >= MAX_PRICE ? null : value))
      .catch(null),
    minRating: lenientNumber
      .refine((value) => (MIN_RATING_OPTIONS as readonly number[]).includes(value))
      .nullable()
      .catch(null),
    sort: z
      .enum(SORT_OPTIONS.map((option) => option.value) as [SortOption, ...SortOption[]])
      .optional()
      .catch(undefined),
    view: z.enum(['grid', 'list']).catch(DEFAULT_PARAMS.view),
    page: z.string().optional().transform(pageParam).catch(DEFAULT_PARAMS.page),
  });
}

/** One schema per list of categories (the shared read returns the same list for a while). */
const schemas = new WeakMap<readonly Category[], ReturnType<typeof paramsSchema>>();

export function parseMarketplaceParams(
  searchParams: URLSearchParams,
  categories: readonly Category[],
): MarketplaceParams {
  let schema = schemas.get(categories);
  if (!schema) schemas.set(categories, (schema = paramsSchema(categories)));
  const raw = (name: keyof MarketplaceParams) => searchParams.get(name) ?? undefined;
  const { sort, ...params } = schema.parse({
    q: raw('q'),
    category: raw('category'),
    maxPrice: raw('maxPrice'),
    minRating: raw('minRating'),
    sort: raw('sort'),
    view: raw('view'),
    page: raw('page'),
  });
  // No order chosen (or "Best match" with nothing to match): the default for the search.
  const chosen = sort === undefined || (sort === 'relevance' && params.q === null) ? defaultSort(params.q) : sort;
  return { ...params, sort: chosen };
}

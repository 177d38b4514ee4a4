/**
 * Parsing of the marketplace's URL state, on the server only (zod stays out of the page's
 * JavaScript). Every parameter is parsed leniently: an invalid or unknown value falls back to
 * its default and never causes an error.
 */
import { z } from 'zod';
import { categoryFromSlug } from '~/lib/categories';
import {
  DEFAULT_PARAMS,
  MAX_PRICE,
  MAX_SEARCH_LENGTH,
  MIN_RATING_OPTIONS,
  SORT_OPTIONS,
  type MarketplaceParams,
  type SortOption,
} from '~/lib/marketplace-params';

const lenientNumber = z.coerce.number().refine(Number.isFinite);

const ParamsSchema = z.object({
  q: z
    .string()
    .transform((value) => value.trim().slice(0, MAX_SEARCH_LENGTH))
    .catch(DEFAULT_PARAMS.q),
  category: z
    .string()
    .transform((value) => categoryFromSlug(value))
    .catch(null),
  maxPrice: lenientNumber
    .transform((value) => Math.round(Math.min(MAX_PRICE, Math.max(0, value))))
    .catch(DEFAULT_PARAMS.maxPrice),
  minRating: lenientNumber
    .refine((value) => (MIN_RATING_OPTIONS as readonly number[]).includes(value))
    .catch(DEFAULT_PARAMS.minRating),
  sort: z.enum(SORT_OPTIONS.map((option) => option.value) as [SortOption, ...SortOption[]]).catch(DEFAULT_PARAMS.sort),
  view: z.enum(['grid', 'list']).catch(DEFAULT_PARAMS.view),
  page: lenientNumber.pipe(z.number().int().min(1).max(10_000)).catch(DEFAULT_PARAMS.page),
});

export function parseMarketplaceParams(searchParams: URLSearchParams): MarketplaceParams {
  const raw = (name: keyof MarketplaceParams) => searchParams.get(name) ?? undefined;
  return ParamsSchema.parse({
    q: raw('q'),
    category: raw('category'),
    maxPrice: raw('maxPrice'),
    minRating: raw('minRating'),
    sort: raw('sort'),
    view: raw('view'),
    page: raw('page'),
  });
}

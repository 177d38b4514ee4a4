/**
 * Parsing of the Purchase History URL, on the server only (zod stays out of the page's
 * JavaScript). Lenient like the marketplace's: an invalid or unknown value is ignored (no
 * filter, no dialog), never an error; an empty value is no filter.
 */
import { z } from 'zod';
import { pageParam } from '~/lib/pagination';
import { categoryBySlug, type Category } from '~/lib/categories';
import { PURCHASE_STATUSES } from '~/lib/membership';
import { MAX_PURCHASE_SEARCH_LENGTH, type PurchaseHistoryParams } from '~/lib/purchase-history';

function paramsSchema(categories: readonly Category[]) {
  return z.object({
    q: z
      .string()
      .transform((value) => value.trim().slice(0, MAX_PURCHASE_SEARCH_LENGTH).trim() || null)
      .catch(null),
    status: z.enum(PURCHASE_STATUSES).nullable().catch(null),
    category: z
      .string()
      .transform((value) => categoryBySlug(categories, value)?.slug ?? null)
      .catch(null),
    contact: z
      .guid()
      .transform((value) => value.toLowerCase())
      .nullable()
      .catch(null),
  });
}

/** `categories`: the categories table (listCategories), which decides the valid slugs. */
export function parsePurchaseHistoryParams(
  searchParams: URLSearchParams,
  categories: readonly Category[],
): PurchaseHistoryParams {
  const raw = (name: keyof PurchaseHistoryParams) => searchParams.get(name) ?? undefined;
  const filters = paramsSchema(categories).parse({
    q: raw('q'),
    status: raw('status'),
    category: raw('category'),
    contact: raw('contact'),
  });
  // The page parser of the other paged lists: anything but a page number is page 1.
  return { ...filters, page: pageParam(searchParams.get('page')) };
}

/**
 * Page numbers in URLs, for every paged list (the marketplace, storefronts, reviews, My
 * Collection, Purchase History and the dashboard's lists): one reading of `?page=` and its kin.
 */

/** The highest page a URL may name; past the last page a list shows its last page. */
export const MAX_PAGE = 10_000;

/** How many pages `total` rows make at `size` a page: at least one, an empty list's. */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / size));
}

/** The page a URL parameter names: a whole number 1 … MAX_PAGE written as digits, else null. */
export function pageNumber(value: string | null | undefined): number | null {
  const text = value?.trim() ?? '';
  if (!/^[1-9]\d{0,4}$/.test(text)) return null;
  const page = Number(text);
  return page <= MAX_PAGE ? page : null;
}

/** The page to show: the one the parameter names, or page 1 when it is absent or names none. */
export function pageParam(value: string | null | undefined): number {
  return pageNumber(value) ?? 1;
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

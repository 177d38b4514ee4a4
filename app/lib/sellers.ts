/** Storefront URLs (`/sellers/{username}?page=n`, issue #12), shared by the page and every link to it. */
import { USERNAME_PATTERN } from '~/lib/auth-rules';

/** The storefront of `username`; page 1 has no `page` parameter. */
export function storefrontHref(username: string, page = 1): string {
  const path = `/sellers/${encodeURIComponent(username)}`;
  return page > 1 ? `${path}?page=${page}` : path;
}

/** Whether `value` can be a username at all (anything else is a 404 without a query). */
export function isUsernameLike(value: string | undefined): value is string {
  return value !== undefined && value.length >= 3 && value.length <= 30 && USERNAME_PATTERN.test(value);
}

/**
 * The page of `?page=`: a whole number from 1; null when the parameter is there but is not one
 * (the page redirects to its canonical URL).
 */
export function parseStorefrontPage(value: string | null): number | null {
  if (value === null) return 1;
  if (!/^[1-9]\d{0,5}$/.test(value)) return null;
  return Number(value);
}

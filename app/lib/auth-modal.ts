/** The sign-in / sign-up dialog is driven by the `auth` URL parameter (it works without JavaScript). */
import { safeRedirectPath } from '~/lib/safe-redirect';
import { shareableLocation } from '~/lib/shareable-path';

export type AuthMode = 'sign-in' | 'sign-up' | 'forgot-password';

export const AUTH_MODES: readonly AuthMode[] = ['sign-in', 'sign-up', 'forgot-password'];

export function parseAuthMode(value: string | null): AuthMode | null {
  return AUTH_MODES.find((mode) => mode === value) ?? null;
}

interface LocationLike {
  pathname: string;
  search: string;
}

/**
 * The URL parameters that belong to the dialog, not to the page under it: the mode, where to go
 * once signed in, and the account type a sign-up starts with. A page keeps them whatever it does
 * with its own parameters (see `keepAuthParams`).
 */
export const AUTH_PARAMS = ['auth', 'redirectTo', 'accountType'] as const;

function href(pathname: string, params: URLSearchParams): string {
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ''}`;
}

/**
 * The current page with the dialog open in `mode`, or closed with `null` (all its parameters
 * gone); the home page instead of a page whose URL holds a secret (app/lib/shareable-path.ts).
 */
export function authModalHref(current: LocationLike, mode: AuthMode | null): string {
  const location = shareableLocation(current);
  const params = new URLSearchParams(location.search);
  if (mode) params.set('auth', mode);
  else for (const name of AUTH_PARAMS) params.delete(name);
  return href(location.pathname, params);
}

/**
 * The page's own query string: `search` (a URL's, '' or '?…') without the dialog's parameters;
 * unchanged, byte for byte, when it has none.
 */
export function pageSearch(search: string): string {
  const params = new URLSearchParams(search);
  if (!AUTH_PARAMS.some((name) => params.has(name))) return search;
  for (const name of AUTH_PARAMS) params.delete(name);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * `target` (a same-origin path, with or without a query) carrying the dialog's parameters of the
 * current URL's `search`: a page that redirects to its canonical URL, or to another page of its
 * results, keeps the dialog open.
 */
export function keepAuthParams(target: string, search: string): string {
  const current = new URLSearchParams(search);
  const url = new URL(target, 'http://same.origin');
  for (const name of AUTH_PARAMS) {
    const value = current.get(name);
    if (value !== null) url.searchParams.set(name, value);
  }
  return href(url.pathname, url.searchParams);
}

/**
 * The one sign-in link: opens the sign-in dialog over `over` (a page with its query; the home page
 * by default) and, once signed in, goes to `returnTo` (`redirectTo=`). Without `returnTo` the
 * dialog returns to the page it opened over. Both are same-origin paths only: anything else
 * (`//evil.example`, a full URL) becomes `/`.
 */
export function signInHref({ returnTo, over }: { returnTo?: string; over?: LocationLike } = {}): string {
  const shown = over ? shareableLocation(over) : { pathname: '/', search: '' };
  const page = new URL(safeRedirectPath(`${shown.pathname}${shown.search}`), 'http://same.origin');
  const params = new URLSearchParams(page.search);
  params.set('auth', 'sign-in');
  if (returnTo !== undefined) params.set('redirectTo', safeRedirectPath(returnTo));
  return `${page.pathname}?${params}`;
}

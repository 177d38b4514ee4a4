/** The sign-in / sign-up dialog is driven by the `auth` URL parameter (it works without JavaScript). */
import { safeRedirectPath } from '~/lib/safe-redirect';

export type AuthMode = 'sign-in' | 'sign-up' | 'forgot-password';

export const AUTH_MODES: readonly AuthMode[] = ['sign-in', 'sign-up', 'forgot-password'];

export function parseAuthMode(value: string | null): AuthMode | null {
  return AUTH_MODES.find((mode) => mode === value) ?? null;
}

interface LocationLike {
  pathname: string;
  search: string;
}

/** The current page with the dialog open in `mode` (or closed with `null`). */
export function authModalHref(location: LocationLike, mode: AuthMode | null): string {
  const params = new URLSearchParams(location.search);
  if (mode) params.set('auth', mode);
  else params.delete('auth');
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ''}`;
}

/**
 * The one sign-in link: opens the sign-in dialog over `over` (a page with its query; the home page
 * by default) and, once signed in, goes to `returnTo` (`redirectTo=`). Without `returnTo` the
 * dialog returns to the page it opened over. Both are same-origin paths only: anything else
 * (`//evil.example`, a full URL) becomes `/`.
 */
export function signInHref({ returnTo, over }: { returnTo?: string; over?: LocationLike } = {}): string {
  const page = new URL(safeRedirectPath(over ? `${over.pathname}${over.search}` : '/'), 'http://same.origin');
  const params = new URLSearchParams(page.search);
  params.set('auth', 'sign-in');
  if (returnTo !== undefined) params.set('redirectTo', safeRedirectPath(returnTo));
  return `${page.pathname}?${params}`;
}

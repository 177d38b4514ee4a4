/** The sign-in / sign-up dialog is driven by the `auth` URL parameter (it works without JavaScript). */
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

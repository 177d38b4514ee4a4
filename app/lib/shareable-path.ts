/**
 * A page's own address as other forms and links carry it (the theme and newsletter forms'
 * return path, the sign-in dialog's links and `redirectTo`). A page whose URL holds a secret
 * (the first administrator's one-time `/setup?token=…`, an OAuth or email `code`) is not copied
 * anywhere: its shareable path is the home page, so the secret never lands in another form, a
 * link, a Location header or a server log.
 */
const SECRET_PARAMS = ['token', 'token_hash', 'code'];

interface LocationLike {
  pathname: string;
  search: string;
}

/** Whether a query string (`''` or `?…`) holds a secret parameter. */
export function holdsSecret(search: string): boolean {
  const params = new URLSearchParams(search);
  return SECRET_PARAMS.some((name) => params.has(name));
}

/** The location itself, or the home page when its URL holds a secret. */
export function shareableLocation(location: LocationLike): LocationLike {
  return holdsSecret(location.search) ? { pathname: '/', search: '' } : location;
}

/** `pathname` + `search` of `shareableLocation`. */
export function shareablePath(location: LocationLike): string {
  const { pathname, search } = shareableLocation(location);
  return `${pathname}${search}`;
}

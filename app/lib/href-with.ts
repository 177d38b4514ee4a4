import { useLocation } from 'react-router';

/** `pathname?search` with `changes` applied to the query (null removes a parameter). */
export function hrefWith(pathname: string, search: string, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ''}`;
}

/** `hrefWith` for the current URL: links that open a panel or a page of a list, state in the URL. */
export function useHrefWith() {
  const { pathname, search } = useLocation();
  return (changes: Record<string, string | null>) => hrefWith(pathname, search, changes);
}

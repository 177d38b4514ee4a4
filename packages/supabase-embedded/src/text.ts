/**
 * Postgres text cannot hold U+0000 (NUL): a value carrying one fails deep inside the database
 * (22021 / 22P05). Input is checked once where it is parsed (the gateway for URLs, each
 * service's body parser) so the client gets a clear 400 instead of a 5xx.
 */
export const NUL_MESSAGE = 'Text cannot contain null characters (U+0000).';

/** True when a string anywhere in a parsed JSON value (keys included) contains U+0000. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => key.includes('\0') || containsNul(item));
  }
  return false;
}

/** True when the path or query of a URL carries an encoded NUL (`%00`); raw NULs never reach here. */
export function urlContainsNul(url: URL): boolean {
  return /%00/i.test(url.pathname + url.search);
}

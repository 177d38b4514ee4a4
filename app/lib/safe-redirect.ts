/**
 * Same-origin paths only. remix-utils' safeRedirect lets `/\t/evil.example` through (browsers
 * strip the tab and follow `//evil.example`) and a newline makes the Location header throw, so
 * the check is ours: a single leading slash, then no slash or backslash, and no control
 * characters anywhere. The input is then resolved against a stand-in origin and the check is made
 * again on what comes out: dot segments (`/.//evil.example`, `/%2e//evil.example`,
 * `/..//evil.example`) collapse into `//evil.example`, which a browser reads as another host.
 */
export function safeRedirectPath(to: unknown, fallback = '/'): string {
  if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback;
  if (!isSinglySlashed(to)) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  try {
    const url = new URL(to, 'http://same.origin');
    if (url.origin !== 'http://same.origin') return fallback;
    const path = `${url.pathname}${url.search}${url.hash}`;
    return isSinglySlashed(path) ? path : fallback;
  } catch {
    return fallback;
  }
}

/** A path that starts with exactly one slash (`//host` and `/\host` name another host). */
function isSinglySlashed(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

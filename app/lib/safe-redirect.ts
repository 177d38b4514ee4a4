/**
 * Same-origin paths only. remix-utils' safeRedirect lets `/\t/evil.example` through (browsers
 * strip the tab and follow `//evil.example`) and a newline makes the Location header throw, so
 * the check is ours: a single leading slash, then no slash or backslash, and no control
 * characters anywhere.
 */
export function safeRedirectPath(to: unknown, fallback = '/'): string {
  if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback;
  if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  try {
    const url = new URL(to, 'http://same.origin');
    if (url.origin !== 'http://same.origin') return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/**
 * The origin links are built on when none is configured (no `APP_URL`: the demo, development,
 * tests): the server's own, e.g. `http://localhost:3000`. A request may only pick the same server
 * under another loopback name (`127.0.0.1`, `[::1]`, same scheme and port), so that a browser
 * opened on 127.0.0.1 keeps its cookies across an emailed link or an OAuth round trip. Any other
 * host a request names (`Host`, `X-Forwarded-Host`) is ignored: links in emails and the allowed
 * redirects never follow a request header.
 */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export function servedOrigin(requested: string, own: string): string {
  const ownUrl = new URL(own);
  try {
    const url = new URL(requested);
    if (
      LOOPBACK_HOSTNAMES.has(ownUrl.hostname) &&
      LOOPBACK_HOSTNAMES.has(url.hostname) &&
      url.protocol === ownUrl.protocol &&
      url.port === ownUrl.port
    )
      return url.origin;
  } catch {
    // not a URL: the server's own origin
  }
  return ownUrl.origin;
}

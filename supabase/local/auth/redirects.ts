/**
 * Redirect URL acceptance (wire reference §2.14): same origin as the site URL (any port on
 * loopback hosts), any loopback host, or a glob of `additional_redirect_urls`. The app's own
 * origin is always allowed. Rejected or missing values fall back to a valid Referer, else the site URL.
 */
import type { AuthConfig } from './config';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isAllowedRedirect(candidate: string, config: AuthConfig, appOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (/^\d+$/.test(url.hostname) || !/^[a-z0-9.\-[\]:]+$/i.test(url.hostname)) return false;
  if (LOOPBACK.has(url.hostname)) return true;
  for (const site of [appOrigin, config.siteUrl]) {
    if (!site) continue;
    try {
      const base = new URL(site);
      if (base.protocol === url.protocol && base.host === url.host) return true;
    } catch {
      // an invalid site_url in config.toml simply matches nothing
    }
  }
  const withoutFragment = candidate.split('#')[0]!;
  return config.additionalRedirectUrls.some((pattern) => globToRegExp(pattern).test(withoutFragment));
}

export function resolveRedirect(candidate: string | null | undefined, request: Request, config: AuthConfig, appOrigin: string): string {
  if (candidate && isAllowedRedirect(candidate, config, appOrigin)) return candidate;
  const referer = request.headers.get('referer');
  if (referer && isAllowedRedirect(referer, config, appOrigin)) return referer;
  return config.siteUrl && isAllowedRedirect(config.siteUrl, config, appOrigin) ? config.siteUrl : appOrigin;
}

/** gobwas/glob with separators `.` and `/`: `**` any text, `*` within a segment, `?` one char. */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '*' && pattern[index + 1] === '*') {
      source += '.*';
      index++;
    } else if (char === '*') source += '[^./]*';
    else if (char === '?') source += '[^./]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

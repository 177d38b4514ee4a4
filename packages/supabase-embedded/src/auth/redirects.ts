/**
 * Redirect URL acceptance: the origin (scheme, host and port) of the site
 * URL or of the app's own served origin, or a glob of `additional_redirect_urls`. Nothing else:
 * not even another port on localhost, where any local program could be listening for the code.
 * Rejected or missing values fall back to a valid Referer, else the app's origin.
 */
import type { AuthConfig } from './config';

export function isAllowedRedirect(candidate: string, config: AuthConfig, appOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // The URL parser turns `http://2130706433/` into 127.0.0.1: judge the host as written.
  const rawHost = /^[a-z]+:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(candidate)?.[1] ?? '';
  if (/^\d+$/.test(rawHost) || !/^[a-z0-9.\-[\]:]+$/i.test(rawHost)) return false;
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

export function resolveRedirect(
  candidate: string | null | undefined,
  request: Request,
  config: AuthConfig,
  appOrigin: string,
): string {
  if (candidate && isAllowedRedirect(candidate, config, appOrigin)) return candidate;
  const referer = request.headers.get('referer');
  if (referer && isAllowedRedirect(referer, config, appOrigin)) return referer;
  // The stand-in knows the origin it is really served on; `site_url` may name another port.
  return appOrigin;
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

/**
 * A client hint for the user's time zone, the way the Epic Stack does it: a tiny inline script
 * in <head> stores the browser's zone in a cookie, so the server renders local times right from
 * the first byte. It reloads once when the cookie was missing or stale, but only on the pages
 * that render local times (the dashboard): elsewhere the cookie is simply ready for the next
 * request, and no page reloads under the user. Without JavaScript the server's zone is used.
 */
import { dateTimeFormat } from '~/lib/intl';

export const TIME_ZONE_COOKIE = 'am_ch_tz';

/** Paths whose server render depends on the zone (a stale hint reloads them once). */
export const TIME_ZONE_PATH_PREFIX = '/dashboard';

/**
 * The inline script (it must carry the CSP nonce). Reloads only when cookies actually stick.
 * A page's first use of `Intl` loads the browser's ICU data (30–70 ms on a desktop, several times
 * that on a phone), and a script in <head> holds the first paint while it runs: so the check waits
 * for the first frame, except on a dashboard page without any hint yet, which it reloads before
 * anything is shown (ADR 029).
 */
export const CLIENT_HINT_SCRIPT = `(function(){var n=${JSON.stringify(TIME_ZONE_COOKIE)},d=${JSON.stringify(TIME_ZONE_PATH_PREFIX)},p=location.pathname,dash=p===d||p.indexOf(d+'/')===0;var read=function(){var m=document.cookie.match(new RegExp('(?:^|;\\\\s*)'+n+'=([^;]*)'));return m?decodeURIComponent(m[1]):null};var check=function(){try{var tz=Intl.DateTimeFormat().resolvedOptions().timeZone;if(!tz||read()===tz)return;document.cookie=n+'='+encodeURIComponent(tz)+'; Path=/; Max-Age=31536000; SameSite=Lax';if(dash&&read()===tz&&navigator.cookieEnabled)location.reload()}catch(e){}};if(dash&&read()===null)check();else requestAnimationFrame(function(){setTimeout(check,0)})})();`;

export function isValidTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    dateTimeFormat({ timeZone: value });
    return true;
  } catch {
    return false;
  }
}

let processZone: string | undefined;

/** The server process's own zone, the fallback without a hint (read once: it costs 0.1 ms). */
export function serverTimeZone(): string {
  processZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return processZone;
}

/** The time zone from the request's Cookie header, else the server's zone. */
export function timeZoneFromCookieHeader(cookieHeader: string | null): string {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== TIME_ZONE_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(rest.join('='));
    } catch {
      continue;
    }
    if (isValidTimeZone(value)) return value;
  }
  return serverTimeZone();
}

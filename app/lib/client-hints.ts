/**
 * A client hint for the user's time zone, the way the Epic Stack does it: a tiny inline script
 * in <head> stores the browser's zone in a cookie and reloads once when it was missing or
 * changed, so the server renders local times right from the first byte. Without JavaScript
 * there is no cookie and the server's own zone is used.
 */
export const TIME_ZONE_COOKIE = 'am_ch_tz';

/** The inline script (it must carry the CSP nonce). Reloads only when cookies actually stick. */
export const CLIENT_HINT_SCRIPT = `(function(){try{var n=${JSON.stringify(TIME_ZONE_COOKIE)};var tz=Intl.DateTimeFormat().resolvedOptions().timeZone;if(!tz)return;var read=function(){var m=document.cookie.match(new RegExp('(?:^|;\\\\s*)'+n+'=([^;]*)'));return m?decodeURIComponent(m[1]):null};var before=read();if(before===tz)return;document.cookie=n+'='+encodeURIComponent(tz)+'; Path=/; Max-Age=31536000; SameSite=Lax';if(read()===tz&&navigator.cookieEnabled)window.location.reload()}catch(e){}})();`;

export function isValidTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The server process's own zone, the fallback without a hint. */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
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

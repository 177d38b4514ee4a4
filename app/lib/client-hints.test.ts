import { describe, expect, it } from 'vitest';
import { CLIENT_HINT_SCRIPT, TIME_ZONE_COOKIE, serverTimeZone, timeZoneFromCookieHeader } from './client-hints';

describe('timeZoneFromCookieHeader', () => {
  it('reads a valid zone from the hint cookie', () => {
    expect(timeZoneFromCookieHeader(`a=1; ${TIME_ZONE_COOKIE}=Asia%2FTokyo; b=2`)).toBe('Asia/Tokyo');
  });

  it("falls back to the server's zone without a cookie or with junk", () => {
    expect(timeZoneFromCookieHeader(null)).toBe(serverTimeZone());
    expect(timeZoneFromCookieHeader(`${TIME_ZONE_COOKIE}=Mars%2FOlympus`)).toBe(serverTimeZone());
    expect(timeZoneFromCookieHeader(`${TIME_ZONE_COOKIE}=%E0%A4%A`)).toBe(serverTimeZone());
  });
});

describe('CLIENT_HINT_SCRIPT', () => {
  function run(initialCookie: string, pathname = '/dashboard') {
    let cookie = initialCookie;
    let reloads = 0;
    const document = {
      get cookie() {
        return cookie;
      },
      set cookie(value: string) {
        const pair = value.split(';')[0] ?? '';
        const name = pair.split('=')[0];
        const rest = cookie.split('; ').filter((part) => part && !part.startsWith(`${name}=`));
        cookie = [...rest, pair].join('; ');
      },
    };
    const location = { pathname, reload: () => reloads++ };
    const navigator = { cookieEnabled: true };
    new Function('document', 'location', 'navigator', CLIENT_HINT_SCRIPT)(document, location, navigator);
    return { cookie, reloads };
  }
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  it('sets the cookie and reloads once when it is missing or stale', () => {
    expect(run('')).toEqual({ cookie: `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`, reloads: 1 });
    expect(run(`x=1; ${TIME_ZONE_COOKIE}=Nowhere`).reloads).toBe(1);
  });

  it('only sets the cookie, without reloading, outside the dashboard', () => {
    expect(run('', '/marketplace')).toEqual({ cookie: `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`, reloads: 0 });
    expect(run('', '/dashboardx').reloads).toBe(0);
    expect(run('', '/dashboard/billing').reloads).toBe(1);
  });

  it('does nothing when the cookie is current', () => {
    expect(run(`${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`).reloads).toBe(0);
  });
});

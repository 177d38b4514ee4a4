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
  /** Runs the script; `deferred` says whether its check waited for the first frame. */
  function run(initialCookie: string, pathname = '/dashboard') {
    let cookie = initialCookie;
    let reloads = 0;
    let deferred = false;
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
    const frames: (() => void)[] = [];
    const requestAnimationFrame = (callback: () => void) => frames.push(callback);
    const setTimeout = (callback: () => void) => callback();
    new Function('document', 'location', 'navigator', 'requestAnimationFrame', 'setTimeout', CLIENT_HINT_SCRIPT)(
      document,
      location,
      navigator,
      requestAnimationFrame,
      setTimeout,
    );
    if (frames.length > 0) {
      // Nothing happens before the first frame.
      expect({ cookie, reloads }).toEqual({ cookie: initialCookie, reloads: 0 });
      deferred = true;
      for (const frame of frames) frame();
    }
    return { cookie, reloads, deferred };
  }
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  it('on the dashboard, sets a missing cookie and reloads at once, before the first paint', () => {
    const hint = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`;
    expect(run('')).toEqual({ cookie: hint, reloads: 1, deferred: false });
    expect(run('', '/dashboard/billing')).toEqual({ cookie: hint, reloads: 1, deferred: false });
  });

  it('on the dashboard, replaces a stale cookie and reloads once, after the first frame', () => {
    expect(run(`x=1; ${TIME_ZONE_COOKIE}=Nowhere`)).toEqual({
      cookie: `x=1; ${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`,
      reloads: 1,
      deferred: true,
    });
  });

  it('only sets the cookie, after the first frame and without reloading, outside the dashboard', () => {
    const hint = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`;
    expect(run('', '/marketplace')).toEqual({ cookie: hint, reloads: 0, deferred: true });
    expect(run('', '/dashboardx')).toEqual({ cookie: hint, reloads: 0, deferred: true });
  });

  it('does nothing when the cookie is current', () => {
    const hint = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`;
    expect(run(hint)).toEqual({ cookie: hint, reloads: 0, deferred: true });
    expect(run(hint, '/')).toEqual({ cookie: hint, reloads: 0, deferred: true });
  });
});

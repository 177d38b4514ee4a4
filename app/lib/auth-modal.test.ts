import { describe, expect, it } from 'vitest';
import { authModalHref, keepAuthParams, pageSearch, parseAuthMode, signInHref } from './auth-modal';

describe('signInHref', () => {
  it('opens the dialog on the home page and returns to the guarded page (the guards)', () => {
    expect(signInHref({ returnTo: '/dashboard/orders?page=2' })).toBe(
      '/?auth=sign-in&redirectTo=%2Fdashboard%2Forders%3Fpage%3D2',
    );
  });

  it('opens the dialog over a page and returns to it (the agent page)', () => {
    expect(signInHref({ over: { pathname: '/agent/42', search: '' }, returnTo: '/agent/42' })).toBe(
      '/agent/42?auth=sign-in&redirectTo=%2Fagent%2F42',
    );
  });

  it('keeps the query of the page it opens over, and without a return path leaves it to the dialog (the header)', () => {
    const location = { pathname: '/marketplace', search: '?category=sales&sort=price-low' };
    expect(signInHref({ over: location })).toBe('/marketplace?category=sales&sort=price-low&auth=sign-in');
    expect(signInHref({ over: location })).toBe(authModalHref(location, 'sign-in'));
  });

  it('replaces another dialog mode instead of adding a second one', () => {
    expect(signInHref({ over: { pathname: '/', search: '?auth=sign-up' } })).toBe('/?auth=sign-in');
  });

  it('is the home page with the dialog when nothing is given', () => {
    expect(signInHref()).toBe('/?auth=sign-in');
  });

  it.each(['//evil.example', 'https://evil.example/x', '/\\evil.example', 'javascript:alert(1)'])(
    'never returns to another origin: %j',
    (returnTo) => {
      expect(signInHref({ returnTo })).toBe('/?auth=sign-in&redirectTo=%2F');
    },
  );

  it('never opens over another origin', () => {
    expect(signInHref({ over: { pathname: '//evil.example', search: '?q=1' } })).toBe('/?auth=sign-in');
  });
});

describe('authModalHref', () => {
  it('switches the mode in place and closes the dialog with null', () => {
    const location = { pathname: '/agent/42', search: '?auth=sign-in&redirectTo=%2Fagent%2F42' };
    expect(authModalHref(location, 'sign-up')).toBe('/agent/42?auth=sign-up&redirectTo=%2Fagent%2F42');
    expect(authModalHref({ pathname: '/marketplace', search: '?auth=sign-in' }, null)).toBe('/marketplace');
  });

  it('parses only known modes', () => {
    expect(parseAuthMode('forgot-password')).toBe('forgot-password');
    expect(parseAuthMode('admin')).toBeNull();
  });
});

describe("the dialog parameters survive a page's own redirects", () => {
  it("pageSearch is the page's own query, unchanged when the dialog is closed", () => {
    expect(pageSearch('?category=sales&auth=sign-in&redirectTo=%2Fx&accountType=seller')).toBe('?category=sales');
    expect(pageSearch('?auth=sign-in')).toBe('');
    expect(pageSearch('?q=a%20b&page=2')).toBe('?q=a%20b&page=2');
    expect(pageSearch('')).toBe('');
  });

  it('keepAuthParams carries the dialog onto the canonical URL', () => {
    expect(keepAuthParams('/marketplace?category=sales', '?auth=sign-in&category=sales&sort=newest')).toBe(
      '/marketplace?category=sales&auth=sign-in',
    );
    expect(keepAuthParams('/marketplace', '?auth=sign-up&accountType=seller&redirectTo=%2Fdashboard')).toBe(
      '/marketplace?auth=sign-up&redirectTo=%2Fdashboard&accountType=seller',
    );
    expect(keepAuthParams('/marketplace?page=3', '?page=99')).toBe('/marketplace?page=3');
  });

  it('closing the dialog drops all of its parameters', () => {
    const location = { pathname: '/become-seller', search: '?auth=sign-up&accountType=seller&redirectTo=%2Fdashboard' };
    expect(authModalHref(location, null)).toBe('/become-seller');
  });
});

import { describe, expect, it } from 'vitest';
import { authModalHref, parseAuthMode, signInHref } from './auth-modal';

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

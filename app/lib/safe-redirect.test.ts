import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect';

describe('safeRedirectPath', () => {
  it.each([
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    'http:evil.example',
    '%2F%2Fevil.example',
    '/%5Cevil.example'.replace('%5C', '\\'),
    '/.//evil.example/x',
    '/%2e//evil.example',
    '/a/..//evil.example',
    '',
    'dashboard',
  ])('refuses %j', (to) => {
    expect(safeRedirectPath(to)).toBe('/');
  });

  it.each([
    ['/dashboard', '/dashboard'],
    ['/marketplace?category=sales&sort=rating', '/marketplace?category=sales&sort=rating'],
    ['/agent/1#reviews', '/agent/1#reviews'],
    ['/./dashboard', '/dashboard'],
    ['/a/../dashboard', '/dashboard'],
  ])('keeps same-origin path %j', (to, expected) => {
    expect(safeRedirectPath(to)).toBe(expected);
  });

  it('uses the fallback for non-strings', () => {
    expect(safeRedirectPath(undefined, '/dashboard')).toBe('/dashboard');
    expect(safeRedirectPath(42)).toBe('/');
  });
});

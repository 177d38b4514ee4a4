import { describe, expect, it } from 'vitest';
import { isUsernameLike, storefrontHref } from './sellers';

describe('storefront URLs', () => {
  it('links page 1 without a parameter and later pages with one', () => {
    expect(storefrontHref('demo_seller')).toBe('/sellers/demo_seller');
    expect(storefrontHref('demo_seller', 1)).toBe('/sellers/demo_seller');
    expect(storefrontHref('demo_seller', 3)).toBe('/sellers/demo_seller?page=3');
  });

  it('tells usernames from anything else', () => {
    expect(isUsernameLike('demo_seller')).toBe(true);
    for (const value of [undefined, 'ab', 'a'.repeat(31), 'demo.seller', 'démo', '../x']) {
      expect(isUsernameLike(value)).toBe(false);
    }
  });
});

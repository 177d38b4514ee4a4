import { describe, expect, it } from 'vitest';
import { isUsernameLike, parseStorefrontPage, storefrontHref } from './sellers';

describe('storefront URLs', () => {
  it('links page 1 without a parameter and later pages with one', () => {
    expect(storefrontHref('demo_seller')).toBe('/sellers/demo_seller');
    expect(storefrontHref('demo_seller', 1)).toBe('/sellers/demo_seller');
    expect(storefrontHref('demo_seller', 3)).toBe('/sellers/demo_seller?page=3');
  });

  it('reads the page: absent is 1, anything but a whole number from 1 is null', () => {
    expect(parseStorefrontPage(null)).toBe(1);
    expect(parseStorefrontPage('2')).toBe(2);
    for (const value of ['0', '-1', '1.5', 'abc', '', '01', '9999999']) expect(parseStorefrontPage(value)).toBeNull();
  });

  it('tells usernames from anything else', () => {
    expect(isUsernameLike('demo_seller')).toBe(true);
    for (const value of [undefined, 'ab', 'a'.repeat(31), 'demo.seller', 'démo', '../x']) {
      expect(isUsernameLike(value)).toBe(false);
    }
  });
});

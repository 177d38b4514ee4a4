import { describe, expect, it } from 'vitest';
import { parseFields } from '~/lib/forms';
import { compareVersions } from '~/lib/versions';
import { LISTING_MESSAGES, listingSchema, parseFeatures, type PriceLimits } from './listing';

const CATEGORIES = ['Marketing', 'Sales'];

function parse(fields: Record<string, string | string[]>, limits: PriceLimits = { maxPrice: 300 }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  }
  return parseFields(form, listingSchema(CATEGORIES, limits));
}

/** The field errors of a submission that failed. */
function errorsOf(result: ReturnType<typeof parse>) {
  return result.status === 'error' ? result.error : undefined;
}

const VALID = {
  intent: 'publish',
  name: ' Lead Finder ',
  description: 'Finds leads.',
  category: 'Sales',
  price: '19.99',
};

describe('listingSchema', () => {
  it('takes a valid listing, trimmed, features one per line', () => {
    const result = parse({ ...VALID, features: 'One\r\n\r\n  Two  \nThree', keep_images: '/a.png' });
    expect(result.status).toBe('success');
    if (result.status !== 'success') return;
    expect(result.value).toMatchObject({
      intent: 'publish',
      name: 'Lead Finder',
      price: 19.99,
      features: ['One', 'Two', 'Three'],
      version: '',
      keep_images: ['/a.png'],
    });
  });

  it('accepts prices from 0 to the ceiling (300 here) with at most two decimals', () => {
    for (const price of ['0', '300', '299.9', '0.01']) expect(parse({ ...VALID, price }).status, price).toBe('success');
    for (const price of ['300.01', '-1', '1.234', 'abc', '', '1e2', '1000']) {
      const result = parse({ ...VALID, price });
      expect(result.status, price).toBe('error');
      expect(errorsOf(result)?.price, price).toEqual([LISTING_MESSAGES.price({ maxPrice: 300 })]);
    }
  });

  it('follows the ceiling it is given: 1,000 under a ceiling of 1,500, refused under 300', () => {
    expect(parse({ ...VALID, price: '1000' }, { maxPrice: 1500 }).status).toBe('success');
    expect(parse({ ...VALID, price: '1500.01' }, { maxPrice: 1500 }).status).toBe('error');
    expect(errorsOf(parse({ ...VALID, price: '1000' }))?.price).toEqual([LISTING_MESSAGES.price({ maxPrice: 300 })]);
  });

  it('keeps a price a lowered ceiling left above it, and nothing else above the ceiling', () => {
    const limits = { maxPrice: 100, currentPrice: 149 };
    expect(parse({ ...VALID, price: '149' }, limits).status).toBe('success');
    expect(parse({ ...VALID, price: '99.5' }, limits).status).toBe('success');
    const between = parse({ ...VALID, price: '120' }, limits);
    expect(errorsOf(between)?.price).toEqual([
      'The price must be a number from 0 to 100 (or its current 149.00) with at most two decimals (for example 19.99).',
    ]);
    expect(parse({ ...VALID, price: '150' }, limits).status).toBe('error');
  });

  it('refuses a category outside the table, an empty name and a bad version', () => {
    const result = parse({ ...VALID, category: 'Weapons', name: '  ', version: 'v2' });
    expect(errorsOf(result)?.category).toEqual([LISTING_MESSAGES.category]);
    expect(errorsOf(result)?.name).toEqual([LISTING_MESSAGES.nameRequired]);
    expect(errorsOf(result)?.version).toEqual([LISTING_MESSAGES.version]);
  });

  it('refuses an unknown intent and too many features', () => {
    const result = parse({
      ...VALID,
      intent: 'delete',
      features: Array.from({ length: 21 }, (_, i) => `f${i}`).join('\n'),
    });
    expect(errorsOf(result)?.intent).toEqual([LISTING_MESSAGES.intent]);
    expect(errorsOf(result)?.features).toEqual([LISTING_MESSAGES.tooManyFeatures]);
  });
});

describe('versions and features', () => {
  it('compares versions part by part', () => {
    expect(compareVersions('2.0.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.10.0', '1.9.0')).toBe(1);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.0.0', '1.0.1')).toBe(-1);
  });

  it('drops blank feature lines', () => {
    expect(parseFeatures('\n a \n\n b\n')).toEqual(['a', 'b']);
  });
});

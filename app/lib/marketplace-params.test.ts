import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS, formSearch, marketplaceSearch } from './marketplace-params';
import { parseMarketplaceParams } from './marketplace-params.server';
import type { Category } from './categories';

// The parser checks slugs against the list it is given (in the app: the categories table).
const CATEGORIES: Category[] = ['Marketing', 'Data Analysis', 'Sales', 'Customer Support'].map((name) => ({
  name,
  slug: name.toLowerCase(),
  description: '',
  icon: '',
  colour: '',
}));
const parse = (query: string) => parseMarketplaceParams(new URLSearchParams(query), CATEGORIES);

describe('marketplace URL parameters', () => {
  it('gives the defaults for an empty query', () => {
    expect(parse('')).toEqual(DEFAULT_PARAMS);
  });

  it('parses every valid parameter', () => {
    expect(
      parse('q=%20seo%20&category=data%20analysis&maxPrice=150&minRating=4.5&sort=price-low&view=list&page=3'),
    ).toEqual({
      q: 'seo',
      category: 'data analysis',
      maxPrice: 150,
      minRating: 4.5,
      sort: 'price-low',
      view: 'list',
      page: 3,
    });
  });

  it.each([
    ['category=robots', 'category', null],
    ['maxPrice=abc', 'maxPrice', null],
    ['maxPrice=1e309', 'maxPrice', null],
    ['maxPrice=-5', 'maxPrice', 0],
    ['maxPrice=999', 'maxPrice', null],
    ['minRating=2', 'minRating', null],
    ['minRating=x', 'minRating', null],
    ['sort=price;drop table agents', 'sort', 'newest'],
    ['view=table', 'view', 'grid'],
    ['page=-1', 'page', 1],
    ['page=1.5', 'page', 1],
    ['page=99999999', 'page', 1],
  ])('falls back to the default for %s', (query, key, expected) => {
    expect(parse(query)[key as keyof typeof DEFAULT_PARAMS]).toBe(expected);
  });

  it('caps the search text', () => {
    expect(parse(`q=${'a'.repeat(500)}`).q).toHaveLength(100);
  });

  it('builds canonical URLs that drop defaults and round-trip', () => {
    expect(marketplaceSearch(DEFAULT_PARAMS)).toBe('');
    const params = { ...DEFAULT_PARAMS, category: 'customer support', sort: 'rating' as const, page: 2 };
    const search = marketplaceSearch(params);
    expect(search).toBe('?category=customer+support&sort=rating&page=2');
    expect(parse(search.slice(1))).toEqual(params);
  });

  it('has one "no filter": null, whether the filter is missing or filters nothing', () => {
    for (const query of ['', 'q=%20%20', 'maxPrice=300', 'minRating=0', 'category=', 'q=&maxPrice=&minRating=']) {
      expect(parse(query)).toEqual(DEFAULT_PARAMS);
    }
    expect(DEFAULT_PARAMS).toMatchObject({ q: null, category: null, maxPrice: null, minRating: null });
    // A real filter at the edge stays a filter: free agents only, a category in any case.
    expect(parse('maxPrice=0').maxPrice).toBe(0);
    expect(parse('category=SALES').category).toBe('sales');
    expect(marketplaceSearch({ ...DEFAULT_PARAMS, maxPrice: 0 })).toBe('?maxPrice=0');
  });

  it('turns the filter form into the canonical query the server parses to the same state', () => {
    const form = new URLSearchParams([
      ['view', 'list'],
      ['category', 'sales'],
      ['maxPrice', '300'],
      ['minRating', '4.5'],
      ['q', '  data  '],
      ['sort', 'newest'],
    ]);
    // Newest chosen with a search is a choice (the default with a search is Best match).
    const search = formSearch(form);
    expect(search).toBe('?q=data&category=sales&minRating=4.5&sort=newest&view=list');
    const state = parse(search);
    expect(state.sort).toBe('newest');
    expect(marketplaceSearch(state)).toBe(search);
    // The select's default option is empty: the default order of whatever the search is.
    form.set('sort', '');
    expect(formSearch(form)).toBe('?q=data&category=sales&minRating=4.5&view=list');
    expect(parse(formSearch(form)).sort).toBe('relevance');
    form.delete('q');
    expect(parse(formSearch(form)).sort).toBe('newest');
    expect(
      formSearch(
        new URLSearchParams([
          ['category', ''],
          ['minRating', '0'],
        ]),
      ),
    ).toBe('');
  });
});

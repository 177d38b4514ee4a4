import { describe, expect, it } from 'vitest';
import { MAX_PAGE, pageCount, pageNumber, pageParam, pageWindow } from './pagination';

describe('page numbers in URLs', () => {
  it('reads whole numbers from 1 to MAX_PAGE, spaces around them ignored', () => {
    expect(pageNumber('1')).toBe(1);
    expect(pageNumber(' 3 ')).toBe(3);
    expect(pageNumber(String(MAX_PAGE))).toBe(MAX_PAGE);
  });

  it('names no page for anything else, and pageParam shows page 1 then', () => {
    for (const value of [null, undefined, '', '0', '-2', '01', '1.5', '2.0', 'abc', '2abc', '1e3', '0x10', '10001']) {
      expect(pageNumber(value), String(value)).toBeNull();
      expect(pageParam(value), String(value)).toBe(1);
    }
  });

  it('counts pages: at least one, a partial last page included', () => {
    expect(pageCount(0, 24)).toBe(1);
    expect(pageCount(24, 24)).toBe(1);
    expect(pageCount(25, 24)).toBe(2);
  });

  it('links the first and last pages and a window around the current one, gaps as null', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(10, 20)).toEqual([1, null, 8, 9, 10, 11, 12, null, 20]);
  });
});

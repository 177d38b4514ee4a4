import { describe, expect, it } from 'vitest';
import { RestError } from './errors';
import { parseFilter, parseList, parseLogicParam } from './parse-filters';
import { parseOrder } from './parse-order';

const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof RestError ? error.code : 'other';
  }
  return 'none';
};

describe('parseFilter', () => {
  it.each([
    ['eq.5', { operator: 'eq', negate: false, value: '5' }],
    ['not.eq.a.b.c', { operator: 'eq', negate: true, value: 'a.b.c' }],
    ['like.A*', { operator: 'like', value: 'A*' }],
    ['is.NULL', { operator: 'is', value: 'NULL' }],
    ['in.(a,"b,c",d)', { operator: 'in', value: ['a', 'b,c', 'd'] }],
    ['not.in.()', { operator: 'in', negate: true, value: [] }],
    ['cs.{x,y}', { operator: 'cs', value: '{x,y}' }],
    ['like(any).{a*,b*}', { operator: 'like', quantifier: 'any', value: '{a*,b*}' }],
    ['fts(english).cat & dog', { operator: 'fts', config: 'english', value: 'cat & dog' }],
    ['eq.', { operator: 'eq', value: '' }],
  ])('%s', (text, expected) => {
    expect(parseFilter('col', text)).toMatchObject({ type: 'condition', field: { column: 'col' }, ...expected });
  });

  it('reads JSON path keys', () => {
    expect(parseFilter('data->>kind', 'eq.x').field).toEqual({
      column: 'data',
      path: [{ op: '->>', key: 'kind', isIndex: false }],
    });
  });

  it.each([['xx.1'], ['eq'], ['is.maybe'], ['in.a,b'], ['in.("a)'], ['cs(any).{a}'], ['eq(english).x'], ['']])(
    'rejects %s with PGRST100',
    (text) => expect(code(() => parseFilter('col', text))).toBe('PGRST100'),
  );
});

describe('regular expressions', () => {
  const pattern = String.raw`^(.*)(.*)\1\2$`;
  it.each([
    ['match', `match.${pattern}`],
    ['imatch', `imatch.${pattern}`],
    ['not.match', `not.match.${pattern}`],
    ['match(any) with an escaped backslash in the array', `match(any).{"${pattern.replace(/\\/g, '\\\\')}"}`],
    ['an overlong pattern', `match.${'a'.repeat(513)}`],
  ])('refuses %s', (_, text) => expect(code(() => parseFilter('description', text))).toBe('PGRST100'));

  it.each([
    ['(.{0,255}){0,255}$'],
    ['(a+)+'],
    ['(a*)*'],
    ['(.{0,9}){2}'],
    ['(?:x*){0,255}'],
    ['((ab)+)*'],
    ['(a{2})*'],
    ['a**'],
    ['a{256}'],
    ['a{1,1000}'],
    // The scanner does not follow embedded options and comments: they are refused whole.
    ['(.{0,126})(?#z1){0,126}'],
    ['(?x)(.{0,127}) {0,127}'],
    [String.raw`(?b)\(.\{0,128\}\)\{0,128\}`],
    ['***:(?q)a'],
    ['(?i)abc'],
  ])('refuses the repetition in %s', (pattern) => {
    expect(code(() => parseFilter('description', `match.${pattern}`))).toBe('PGRST100');
    expect(code(() => parseFilter('description', `imatch(any).{"x","${pattern}"}`))).toBe('PGRST100');
  });

  it.each([
    ['(ab)?'],
    ['(a+)?'],
    ['(ab)+'],
    ['(a|b)*'],
    ['a*?b+?'],
    ['[(a+)]+'],
    ['\\(a+\\)+'],
    ['[]a+]*'],
    ['x{2,255}'],
    ['***=(a+)+'],
  ])('keeps %s', (pattern) => expect(code(() => parseFilter('description', `match.${pattern}`))).toBe('none'));

  it('refuses them inside logic trees', () => {
    expect(code(() => parseLogicParam('or', `(name.eq.x,description.imatch.${pattern})`))).toBe('PGRST100');
  });

  it('keeps ordinary patterns and an escaped backslash before a digit', () => {
    expect(parseFilter('d', 'imatch.^(agent|tool)s?$').value).toBe('^(agent|tool)s?$');
    expect(parseFilter('d', String.raw`match.x\\1`).value).toBe(String.raw`x\\1`);
  });
});

describe('parseList', () => {
  it('unescapes quoted elements', () => {
    expect(parseList('("a\\"b","c\\\\d",e)', '')).toEqual(['a"b', 'c\\d', 'e']);
  });
});

describe('parseLogicParam', () => {
  it('reads nested trees with negation and quoted values', () => {
    const tree = parseLogicParam('or', '(age.lt.18,not.and(age.gte.11,age.lte.17),name.eq."a,b",tags.cs.{x,y})');
    expect(tree.operator).toBe('or');
    expect(tree.children).toHaveLength(4);
    expect(tree.children[1]).toMatchObject({ type: 'logic', operator: 'and', negate: true });
    expect(tree.children[2]).toMatchObject({ value: 'a,b' });
    expect(tree.children[3]).toMatchObject({ operator: 'cs', value: '{x,y}' });
    expect(parseLogicParam('not.and', '(a.eq.1,b.eq.2)')).toMatchObject({ operator: 'and', negate: true });
  });

  it.each([['(a.eq.1'], ['a.eq.1'], ['()'], ['(a)'], ['(a.eq.1,or(b.eq.2)'], ['(a.zz.1)']])(
    'rejects %s with PGRST100',
    (text) => expect(code(() => parseLogicParam('or', text))).toBe('PGRST100'),
  );
});

describe('parseOrder', () => {
  it('reads directions, nulls placement and JSON paths', () => {
    expect(parseOrder('due.desc.nullslast,title,data->>k.asc.nullsfirst')).toEqual([
      { field: { column: 'due', path: [] }, direction: 'desc', nulls: 'last' },
      { field: { column: 'title', path: [] }, direction: 'asc', nulls: undefined },
      { field: { column: 'data', path: [{ op: '->>', key: 'k', isIndex: false }] }, direction: 'asc', nulls: 'first' },
    ]);
  });

  it.each([['title.sideways'], [''], ['a,'], ['rel(col).desc']])('rejects %s', (text) =>
    expect(code(() => parseOrder(text))).toBe('PGRST100'),
  );
});

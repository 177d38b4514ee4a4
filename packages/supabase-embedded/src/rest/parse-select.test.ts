import { describe, expect, it } from 'vitest';
import { RestError } from './errors';
import { MAX_EMBED_DEPTH, MAX_EMBEDS, parseSelect } from './parse-select';

const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof RestError ? error.code : 'other';
  }
  return 'none';
};

describe('parseSelect', () => {
  it('reads stars, columns, aliases, casts and JSON paths', () => {
    expect(parseSelect('*')).toEqual([{ type: 'star' }]);
    expect(parseSelect('')).toEqual([{ type: 'star' }]);
    expect(parseSelect('id,name:title,due::text,k:data->>key,data->arr->0')).toEqual([
      { type: 'field', field: { column: 'id', path: [] }, alias: undefined, cast: undefined },
      { type: 'field', field: { column: 'title', path: [] }, alias: 'name', cast: undefined },
      { type: 'field', field: { column: 'due', path: [] }, alias: undefined, cast: 'text' },
      {
        type: 'field',
        field: { column: 'data', path: [{ op: '->>', key: 'key', isIndex: false }] },
        alias: 'k',
        cast: undefined,
      },
      {
        type: 'field',
        field: {
          column: 'data',
          path: [
            { op: '->', key: 'arr', isIndex: false },
            { op: '->', key: '0', isIndex: true },
          ],
        },
        alias: undefined,
        cast: undefined,
      },
    ]);
  });

  it('ignores whitespace outside quotes', () => {
    expect(parseSelect(' id ,\n name ')).toMatchObject([{ field: { column: 'id' } }, { field: { column: 'name' } }]);
    expect(parseSelect('"a b"')).toMatchObject([{ field: { column: 'a b' } }]);
  });

  it('reads quoted names and dashes', () => {
    expect(parseSelect('"a,b":"weird col",my-col')).toMatchObject([
      { field: { column: 'weird col' }, alias: 'a,b' },
      { field: { column: 'my-col' } },
    ]);
  });

  it('reads embeds with aliases, hints, join types and spreads', () => {
    expect(parseSelect('*,owner:users!seller_id!inner(username,id),...projects(name),todos()')).toEqual([
      { type: 'star' },
      {
        type: 'embed',
        relation: 'users',
        alias: 'owner',
        hint: 'seller_id',
        joinType: 'inner',
        spread: false,
        items: [
          { type: 'field', field: { column: 'username', path: [] }, alias: undefined, cast: undefined },
          { type: 'field', field: { column: 'id', path: [] }, alias: undefined, cast: undefined },
        ],
      },
      {
        type: 'embed',
        relation: 'projects',
        alias: undefined,
        hint: undefined,
        joinType: undefined,
        spread: true,
        items: [{ type: 'field', field: { column: 'name', path: [] }, alias: undefined, cast: undefined }],
      },
      {
        type: 'embed',
        relation: 'todos',
        alias: undefined,
        hint: undefined,
        joinType: undefined,
        spread: false,
        items: [],
      },
    ]);
  });

  it.each([['a,'], ['a,(b)'], ['a(b'], ['a::'], ['a::text;drop'], [',a'], ['a b)'], ['"open']])(
    'rejects %s with PGRST100',
    (text) => expect(code(() => parseSelect(text))).toBe('PGRST100'),
  );

  it('ends a quoted name where PostgREST does: a backslash takes the next character as it is', () => {
    expect(parseSelect(String.raw`"x\\":name`)).toMatchObject([{ alias: 'x\\', field: { column: 'name' } }]);
    expect(parseSelect(String.raw`"a\"b":name`)).toMatchObject([{ alias: 'a"b', field: { column: 'name' } }]);
    // Whitespace after a quoted name that ends in an escaped backslash is outside the quotes.
    expect(parseSelect(String.raw`"x\\" : name :: text`)).toMatchObject([{ alias: 'x\\', cast: 'text' }]);
  });

  it('casts only to allow-listed type names, one word, lower-cased', () => {
    expect(parseSelect('a::TEXT,b::int[],c::float8')).toMatchObject([
      { cast: 'text' },
      { cast: 'int[]' },
      { cast: 'float8' },
    ]);
    for (const text of [
      String.raw`"x\\":name::text as y from agents where false union all select rolname from pg_roles`,
      'a::text as y',
      'a::regclass',
      'a::"text"',
      'a::pg_catalog.text',
      'a::text[][]',
      'a::int4range',
    ]) {
      expect(
        code(() => parseSelect(text)),
        text,
      ).toBe('PGRST100');
    }
  });

  it('refuses aggregates (disabled as on hosted)', () => {
    expect(code(() => parseSelect('count()'))).toBe('PGRST123');
    expect(code(() => parseSelect('price.sum()'))).toBe('PGRST123');
  });

  it("bounds the embeds of one select: depth and number, the app's shapes well inside", () => {
    const nested = (depth: number): string => (depth === 0 ? 'id' : `r${depth}(${nested(depth - 1)})`);
    expect(code(() => parseSelect(nested(MAX_EMBED_DEPTH)))).toBe('none');
    expect(code(() => parseSelect(nested(MAX_EMBED_DEPTH + 1)))).toBe('PGRST100');
    expect(code(() => parseSelect('a(b(c(d())))'))).toBe('PGRST100');
    const wide = (count: number) => Array.from({ length: count }, (_, i) => `e${i}:agents(id)`).join(',');
    expect(code(() => parseSelect(wide(MAX_EMBEDS)))).toBe('none');
    expect(code(() => parseSelect(wide(MAX_EMBEDS + 1)))).toBe('PGRST100');
    expect(code(() => parseSelect(`a(${wide(MAX_EMBEDS)})`))).toBe('PGRST100');
    for (const text of [
      'id, name, status, price, moderation_reason, agent_stats(purchase_count, avg_rating, review_count, last_version_at), agent_versions(version)',
      'id, agent_id, buyer_id, rating, review_text, created_at, agents!inner(name), review_replies(reply_text, created_at, updated_at)',
      'agent_id, buyer_id, users!purchases_buyer_id_fkey(email, username)',
      'title, ...projects(project:name)',
    ]) {
      expect(
        code(() => parseSelect(text)),
        text,
      ).toBe('none');
    }
  });
});

/**
 * The `select` parameter: `*`, columns, `alias:col`, `col::type`, JSON paths, and
 * embedded resources `alias:rel!hint!inner(...)` / `...rel(...)`. Read from the tokens of
 * parse-field.ts (whitespace outside quotes dropped, as postgrest-js does before sending); a
 * cast is one type name from the allow-list in sql.ts.
 */
import { RestError } from './errors';
import { readField, tokenize, TokenStream, type Field } from './parse-field';
import { allowedCast } from './sql';

export interface StarItem {
  type: 'star';
}
export interface FieldItem {
  type: 'field';
  field: Field;
  alias?: string;
  /** An allow-listed type (sql.ts `allowedCast`), lower case, optionally with `[]`. */
  cast?: string;
}
export interface EmbedItem {
  type: 'embed';
  relation: string;
  alias?: string;
  hint?: string;
  joinType?: 'inner' | 'left';
  spread: boolean;
  items: SelectItem[];
}
export type SelectItem = StarItem | FieldItem | EmbedItem;

const AGGREGATES = new Set(['count', 'sum', 'avg', 'min', 'max']);
/**
 * The shape of one request's select: embeds nest at most MAX_EMBED_DEPTH deep and there are at
 * most MAX_EMBEDS of them in all (the app's widest select has two, one level deep). Each embed is
 * a lateral subquery per row of its parent, so a deep and wide tree multiplies into work that
 * holds the database for the whole statement deadline; such a select is refused before any SQL.
 */
export const MAX_EMBED_DEPTH = 3;
export const MAX_EMBEDS = 10;

/** What the reader has seen so far of one select. */
interface Shape {
  embeds: number;
}

const aggregatesRefused = () => new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');

export function parseSelect(text: string): SelectItem[] {
  const tokens = tokenize(text, 'select', true);
  if (tokens.length === 0) return [{ type: 'star' }];
  const stream = new TokenStream(tokens, 'select', text);
  const items = readList(stream, 0, { embeds: 0 });
  if (!stream.done) throw stream.fail('"," or end of input');
  return items;
}

function readList(stream: TokenStream, depth: number, shape: Shape): SelectItem[] {
  const items = [readItem(stream, depth, shape)];
  while (stream.isSymbol(',')) {
    stream.next();
    items.push(readItem(stream, depth, shape));
  }
  return items;
}

function readItem(stream: TokenStream, depth: number, shape: Shape): SelectItem {
  if (stream.isWord('*')) {
    stream.next();
    return { type: 'star' };
  }
  if (stream.isSymbol('...')) {
    stream.next();
    const relation = stream.name().text;
    return { ...readEmbed(stream, relation, undefined, depth, shape), spread: true };
  }
  let alias: string | undefined;
  if (stream.peek()?.kind === 'name' && stream.isSymbol(':', 1)) {
    alias = stream.name().text;
    stream.next();
  }
  // `rel(` or `rel!hint(`: an embed.
  if (stream.peek()?.kind === 'name' && (stream.isSymbol('(', 1) || stream.isSymbol('!', 1))) {
    const relation = stream.name().text;
    return readEmbed(stream, relation, alias, depth, shape);
  }
  const field = readField(stream);
  if (stream.isSymbol('.') && AGGREGATES.has(stream.peek(1)?.text ?? '') && stream.isSymbol('(', 2)) {
    throw aggregatesRefused();
  }
  let cast: string | undefined;
  if (stream.isSymbol('::')) {
    stream.next();
    const type = stream.peek();
    cast = type?.kind === 'name' && !type.quoted ? allowedCast(type.text) : undefined;
    if (cast === undefined)
      throw stream.fail('a type name (text, int, bigint, numeric, boolean, json, jsonb, date, …)');
    stream.next();
  }
  return { type: 'field', field, alias, cast };
}

/** `!hint!inner(items)` after the relation name. */
function readEmbed(
  stream: TokenStream,
  relation: string,
  alias: string | undefined,
  depth: number,
  shape: Shape,
): EmbedItem {
  if (depth + 1 > MAX_EMBED_DEPTH) {
    throw stream.refuse(`embedded resources nest at most ${MAX_EMBED_DEPTH} deep`);
  }
  if (++shape.embeds > MAX_EMBEDS) {
    throw stream.refuse(`a select embeds at most ${MAX_EMBEDS} resources in all`);
  }
  let hint: string | undefined;
  let joinType: 'inner' | 'left' | undefined;
  while (stream.isSymbol('!')) {
    stream.next();
    if (stream.isWord('inner') || stream.isWord('left')) joinType = stream.next()!.text as 'inner' | 'left';
    else hint = stream.name('a hint, inner or left').text;
  }
  stream.expectSymbol('(');
  if (AGGREGATES.has(relation) && stream.isSymbol(')')) throw aggregatesRefused();
  const items = stream.isSymbol(')') ? [] : readList(stream, depth + 1, shape);
  stream.expectSymbol(')');
  return { type: 'embed', relation, alias, hint, joinType, spread: false, items };
}

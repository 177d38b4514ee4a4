/**
 * The `select` parameter (§3.2): `*`, columns, `alias:col`, `col::type`, JSON paths, and
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
const MAX_DEPTH = 8;

const aggregatesRefused = () => new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');

export function parseSelect(text: string): SelectItem[] {
  const tokens = tokenize(text, 'select', true);
  if (tokens.length === 0) return [{ type: 'star' }];
  const stream = new TokenStream(tokens, 'select', text);
  const items = readList(stream, 0);
  if (!stream.done) throw stream.fail('"," or end of input');
  return items;
}

function readList(stream: TokenStream, depth: number): SelectItem[] {
  if (depth > MAX_DEPTH) throw stream.fail('embedding nested at most 8 deep');
  const items = [readItem(stream, depth)];
  while (stream.isSymbol(',')) {
    stream.next();
    items.push(readItem(stream, depth));
  }
  return items;
}

function readItem(stream: TokenStream, depth: number): SelectItem {
  if (stream.isWord('*')) {
    stream.next();
    return { type: 'star' };
  }
  if (stream.isSymbol('...')) {
    stream.next();
    const relation = stream.name().text;
    return { ...readEmbed(stream, relation, undefined, depth), spread: true };
  }
  let alias: string | undefined;
  if (stream.peek()?.kind === 'name' && stream.isSymbol(':', 1)) {
    alias = stream.name().text;
    stream.next();
  }
  // `rel(` or `rel!hint(`: an embed.
  if (stream.peek()?.kind === 'name' && (stream.isSymbol('(', 1) || stream.isSymbol('!', 1))) {
    const relation = stream.name().text;
    return readEmbed(stream, relation, alias, depth);
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
function readEmbed(stream: TokenStream, relation: string, alias: string | undefined, depth: number): EmbedItem {
  let hint: string | undefined;
  let joinType: 'inner' | 'left' | undefined;
  while (stream.isSymbol('!')) {
    stream.next();
    if (stream.isWord('inner') || stream.isWord('left')) joinType = stream.next()!.text as 'inner' | 'left';
    else hint = stream.name('a hint, inner or left').text;
  }
  stream.expectSymbol('(');
  if (AGGREGATES.has(relation) && stream.isSymbol(')')) throw aggregatesRefused();
  const items = stream.isSymbol(')') ? [] : readList(stream, depth + 1);
  stream.expectSymbol(')');
  return { type: 'embed', relation, alias, hint, joinType, spread: false, items };
}

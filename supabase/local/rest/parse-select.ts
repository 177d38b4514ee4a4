/**
 * The `select` parameter (§3.2): `*`, columns, `alias:col`, `col::type`, JSON paths, and
 * embedded resources `alias:rel!hint!inner(...)` / `...rel(...)`.
 */
import { parseError, RestError } from './errors';
import { readField, readName, type Field } from './parse-field';

export interface StarItem {
  type: 'star';
}
export interface FieldItem {
  type: 'field';
  field: Field;
  alias?: string;
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

const CAST = /^[A-Za-z_][A-Za-z0-9_ ]*(\[\])?$/;
const AGGREGATES = new Set(['count', 'sum', 'avg', 'min', 'max']);

/** Whitespace outside double quotes is dropped, as postgrest-js does before sending. */
function stripWhitespace(text: string): string {
  let result = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '"' && text[index - 1] !== '\\') quoted = !quoted;
    if (quoted || !/\s/.test(char)) result += char;
  }
  return result;
}

export function parseSelect(text: string): SelectItem[] {
  const stripped = stripWhitespace(text);
  const source = stripped === '' ? '*' : stripped;
  const [items, end] = readList(source, 0, 0);
  if (end !== source.length) throw fail(source, end, 'end of input');
  return items;
}

function fail(text: string, index: number, expecting: string): RestError {
  const found = index >= text.length ? 'end of input' : JSON.stringify(text[index]);
  return parseError('select', text, `unexpected ${found} expecting ${expecting}`);
}

function readList(text: string, start: number, depth: number): [SelectItem[], number] {
  if (depth > 8) throw parseError('select', text, 'embedding is nested too deeply');
  const items: SelectItem[] = [];
  let index = start;
  for (;;) {
    const [item, next] = readItem(text, index, depth);
    items.push(item);
    index = next;
    if (text[index] !== ',') return [items, index];
    index++;
  }
}

function readItem(text: string, start: number, depth: number): [SelectItem, number] {
  if (text[start] === '*') return [{ type: 'star' }, start + 1];
  if (text.startsWith('...', start)) {
    const [embed, next] = readEmbedTail(text, start + 3, depth, undefined);
    if (!embed) throw fail(text, next, '"("');
    return [{ ...embed, spread: true }, next];
  }
  let alias: string | undefined;
  let index = start;
  const [first, afterFirst] = readName(text, index, 'select');
  if (text[afterFirst] === ':' && text[afterFirst + 1] !== ':') {
    alias = first;
    index = afterFirst + 1;
  }
  const [embed, afterEmbed] = readEmbedTail(text, index, depth, alias);
  if (embed) return [embed, afterEmbed];

  const [field, afterField] = readField(text, index, 'select');
  index = afterField;
  if (text[index] === '(' && text[index + 1] === ')' && AGGREGATES.has(field.column)) {
    throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
  }
  if (text.startsWith('.', index) && /^\.(count|sum|avg|min|max)\(\)/.test(text.slice(index))) {
    throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
  }
  let cast: string | undefined;
  if (text.startsWith('::', index)) {
    const match = /^[A-Za-z0-9_ ]+(\[\])?/.exec(text.slice(index + 2));
    if (!match || !CAST.test(match[0])) throw fail(text, index + 2, 'a type name');
    cast = match[0];
    index += 2 + match[0].length;
  }
  return [{ type: 'field', field, alias, cast }, index];
}

/** `rel!hint!inner(items)` at `start`, or `null` when what follows is not an embed. */
function readEmbedTail(
  text: string,
  start: number,
  depth: number,
  alias: string | undefined,
): [EmbedItem | null, number] {
  const [relation, afterName] = readName(text, start, 'select');
  let index = afterName;
  let hint: string | undefined;
  let joinType: 'inner' | 'left' | undefined;
  while (text[index] === '!') {
    const [word, next] = readName(text, index + 1, 'select');
    if (word === 'inner' || word === 'left') joinType = word;
    else hint = word;
    index = next;
  }
  if (text[index] !== '(') {
    if (index !== afterName) throw fail(text, index, '"("');
    return [null, start];
  }
  if (AGGREGATES.has(relation) && text[index + 1] === ')') {
    throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
  }
  const [items, afterItems] = text[index + 1] === ')' ? [[], index + 1] : readList(text, index + 1, depth + 1);
  if (text[afterItems] !== ')') throw fail(text, afterItems, '")"');
  return [{ type: 'embed', relation, alias, hint, joinType, spread: false, items }, afterItems + 1];
}

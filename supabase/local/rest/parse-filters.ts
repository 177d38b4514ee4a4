/**
 * Horizontal filters (§3.3) and logical trees (§3.4): `col=[not.]op[(any|all)][(config)].value`
 * and `or=(a.eq.1,and(b.gt.2,c.is.null))`. Values stay strings; the SQL builder binds them
 * as parameters so Postgres casts them to the column type.
 */
import { parseError } from './errors';
import { maskQuoted, parseField, type Field } from './parse-field';

export const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'is',
  'isdistinct',
  'in',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxl',
  'nxr',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
] as const;
export type Operator = (typeof OPERATORS)[number];

const QUANTIFIABLE = new Set<Operator>(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);
const FULL_TEXT = new Set<Operator>(['fts', 'plfts', 'phfts', 'wfts']);
const IS_VALUES = new Set(['null', 'not_null', 'true', 'false', 'unknown']);
const REGEX = new Set<Operator>(['match', 'imatch']);
/** The longest pattern `match` / `imatch` take (PostgREST clients send short ones). */
export const MAX_PATTERN_LENGTH = 512;

export interface Condition {
  type: 'condition';
  field: Field;
  negate: boolean;
  operator: Operator;
  quantifier?: 'any' | 'all';
  /** Text search configuration of `fts(english)`. */
  config?: string;
  /** The literal after the operator; for `in` the list elements. */
  value: string | string[];
}

export interface LogicTree {
  type: 'logic';
  operator: 'and' | 'or';
  negate: boolean;
  children: FilterNode[];
}

export type FilterNode = Condition | LogicTree;

/** Parses the value of a filter parameter `key=value` (the key names the field). */
export function parseFilter(key: string, value: string): Condition {
  return parseOperation(parseField(key, 'filter'), value, `${key}=${value}`, false);
}

/** Parses `or=(…)` / `and=(…)` / `not.or=(…)`; `key` is the parameter name without embed path. */
export function parseLogicParam(key: 'and' | 'or' | 'not.and' | 'not.or', value: string): LogicTree {
  const negate = key.startsWith('not.');
  const operator = key.endsWith('or') ? 'or' : 'and';
  return parseTree(operator, negate, value, `${key}=${value}`, 0);
}

function parseOperation(field: Field, text: string, whole: string, inTree: boolean): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const match = /^([a-z]+)(?:\((any|all)\)|\(([A-Za-z0-9_ ]+)\))?\./.exec(rest);
  const operator = match?.[1] as Operator | undefined;
  if (!match || !operator || !(OPERATORS as readonly string[]).includes(operator)) {
    throw parseError(
      'filter',
      whole,
      `unexpected "${rest.split('.')[0] ?? ''}" expecting an operator (eq, neq, gt, …)`,
    );
  }
  const quantifier = match[2] as 'any' | 'all' | undefined;
  const config = match[3];
  if (quantifier && !QUANTIFIABLE.has(operator)) throw parseError('filter', whole, `"${operator}" takes no (any|all)`);
  if (config && !FULL_TEXT.has(operator)) throw parseError('filter', whole, `"${operator}" takes no configuration`);
  let raw = rest.slice(match[0].length);
  if (inTree) raw = unquote(raw);
  let value: string | string[] = raw;
  if (operator === 'in') value = parseList(raw, whole);
  if (operator === 'is' && !IS_VALUES.has(raw.toLowerCase())) {
    throw parseError('filter', whole, 'expecting null, not_null, true, false or unknown');
  }
  if (REGEX.has(operator)) checkPattern(raw, Boolean(quantifier), whole);
  return { type: 'condition', field, negate, operator, quantifier, config, value };
}

/**
 * A regular expression runs inside the database, where a backreference (`\1` … `\9`) can make
 * one match take exponential time and hold the server: patterns with one, or longer than
 * MAX_PATTERN_LENGTH, are refused. With `(any)`/`(all)` the value is an array literal whose
 * backslashes are escapes too, so its unescaped form is checked as well.
 */
function checkPattern(pattern: string, quantified: boolean, whole: string): void {
  const forms = quantified ? [pattern, pattern.replace(/\\([\s\S])/g, '$1')] : [pattern];
  const shown = whole.length > 200 ? `${whole.slice(0, 200)}…` : whole;
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw parseError('filter', shown, `a regular expression is limited to ${MAX_PATTERN_LENGTH} characters`);
  }
  if (forms.some(hasBackreference)) {
    throw parseError('filter', shown, 'regular expressions cannot use backreferences (\\1 … \\9)');
  }
}

function hasBackreference(pattern: string): boolean {
  for (let index = 0; index < pattern.length; index++) {
    if (pattern[index] !== '\\') continue;
    if (/[1-9]/.test(pattern[index + 1] ?? '')) return true;
    index++; // an escaped character, e.g. `\\1` is a backslash and a digit
  }
  return false;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

/** `(a,"b,c",d)` → `['a', 'b,c', 'd']`. */
export function parseList(text: string, whole: string): string[] {
  if (!text.startsWith('(') || !text.endsWith(')')) {
    throw parseError('filter', whole, 'expecting a list such as (a,b,c)');
  }
  const body = text.slice(1, -1);
  if (body === '') return [];
  const items: string[] = [];
  let index = 0;
  while (index <= body.length) {
    if (body[index] === '"') {
      let item = '';
      index++;
      while (index < body.length && body[index] !== '"') {
        if (body[index] === '\\' && index + 1 < body.length) index++;
        item += body[index];
        index++;
      }
      if (index >= body.length) throw parseError('filter', whole, 'unterminated quoted list element');
      index++;
      items.push(item);
      if (index < body.length && body[index] !== ',')
        throw parseError('filter', whole, 'expecting "," after a quoted element');
    } else {
      const end = body.indexOf(',', index);
      const stop = end === -1 ? body.length : end;
      items.push(body.slice(index, stop).trim());
      index = stop;
    }
    index++; // past the comma (or the end)
  }
  return items;
}

/** Splits on commas outside parentheses, braces and double quotes. */
function splitTopLevel(text: string, whole: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '\\') index++;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === '(' || char === '{' || char === '[') depth++;
    else if (char === ')' || char === '}' || char === ']') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
    if (depth < 0) throw parseError('logic tree', whole, 'unbalanced parentheses');
  }
  if (quoted || depth !== 0) throw parseError('logic tree', whole, 'unbalanced parentheses or quotes');
  parts.push(text.slice(start));
  return parts;
}

function parseTree(operator: 'and' | 'or', negate: boolean, text: string, whole: string, depth: number): LogicTree {
  if (depth > 16) throw parseError('logic tree', whole, 'nested too deeply');
  if (!text.startsWith('(') || !text.endsWith(')') || text.length < 3) {
    throw parseError('logic tree', whole, 'expecting "(" … ")"');
  }
  const children = splitTopLevel(text.slice(1, -1), whole).map((part): FilterNode => {
    const nested = /^(not\.)?(and|or)(\(.*\))$/s.exec(part);
    if (nested) return parseTree(nested[2] as 'and' | 'or', Boolean(nested[1]), nested[3]!, whole, depth + 1);
    const dot = maskQuoted(part).indexOf('.');
    if (dot <= 0) throw parseError('logic tree', whole, `expecting "column.operator.value", got "${part}"`);
    return parseOperation(parseField(part.slice(0, dot), 'logic tree'), part.slice(dot + 1), whole, true);
  });
  return { type: 'logic', operator, negate, children };
}

/**
 * Horizontal filters and logical trees: `col=[not.]op[(any|all)][(config)].value`
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
 * one match take exponential time and hold the server, and a repeated group that itself repeats
 * (`(a+)+`, `(.{0,255}){0,255}`) makes the engine build an automaton too large for its memory or
 * the statement deadline: patterns with either, with a counted repeat above MAX_REPEAT_COUNT, or
 * longer than MAX_PATTERN_LENGTH, are refused. With `(any)`/`(all)` the value is an array literal
 * whose backslashes are escapes too, so its unescaped form and its elements are checked as well.
 */
function checkPattern(pattern: string, quantified: boolean, whole: string): void {
  const forms = quantified ? [pattern, pattern.replace(/\\([\s\S])/g, '$1'), ...arrayElements(pattern)] : [pattern];
  const shown = whole.length > 200 ? `${whole.slice(0, 200)}…` : whole;
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw parseError('filter', shown, `a regular expression is limited to ${MAX_PATTERN_LENGTH} characters`);
  }
  if (forms.some(hasBackreference)) {
    throw parseError('filter', shown, 'regular expressions cannot use backreferences (\\1 … \\9)');
  }
  for (const form of forms) {
    const problem = repetitionProblem(form);
    if (problem) throw parseError('filter', shown, problem);
  }
}

/** Why a pattern with an embedded option or comment, which the scanner below does not follow, is refused. */
const EMBEDDED_OPTIONS = 'regular expressions cannot use embedded options or comments, such as (?#…) or (?x)';

/** PostgreSQL's own limit on a counted repeat `{m,n}` (DUPMAX); larger counts are refused here. */
export const MAX_REPEAT_COUNT = 255;

/**
 * Why a pattern repeats a repetition, or null. A small scanner of PostgreSQL's regular
 * expressions: escapes and bracket expressions are skipped, each group records whether it
 * contains a quantifier, and a quantifier that repeats (`*`, `+`, `{m,n}` with n > 1) after such a
 * group is refused; `?` (`{0,1}`) after one is harmless. A quantifier right after another (other
 * than the non-greedy `?`) is refused too, as PostgreSQL does.
 */
function repetitionProblem(text: string): string | null {
  if (text.startsWith('***=')) return null; // the rest is a literal string
  const pattern = text.startsWith('***:') ? text.slice(4) : text;
  if (pattern.startsWith('***')) return EMBEDDED_OPTIONS;
  const outer: boolean[] = [];
  let quantifiedInside = false; // the group being read (or the whole pattern) contains a quantifier
  let previous: 'none' | 'atom' | 'group' | 'quantifier' = 'none';
  let groupQuantified = false; // of the group that just closed
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\') {
      index++;
      previous = 'atom';
      continue;
    }
    if (char === '[') {
      index = bracketEnd(pattern, index);
      previous = 'atom';
      continue;
    }
    if (char === '(') {
      outer.push(quantifiedInside);
      quantifiedInside = false;
      previous = 'none';
      if (pattern[index + 1] === '?') {
        // (?: (?= (?! (?<= (?<! only. Embedded options and comments ((?#…), (?x) that ignores
        // spaces, (?b) whose groups and counts are escaped, (?q)…) change what the rest means,
        // which this scanner does not follow: they are refused.
        const kind = /^\(\?(:|=|!|<=|<!)/.exec(pattern.slice(index))?.[1];
        if (!kind) return EMBEDDED_OPTIONS;
        index += 1 + kind.length;
      }
      continue;
    }
    if (char === ')') {
      groupQuantified = quantifiedInside;
      quantifiedInside = (outer.pop() ?? false) || quantifiedInside;
      previous = 'group';
      continue;
    }
    if (char === '|') {
      previous = 'none';
      continue;
    }
    let most: number | undefined;
    if (char === '*' || char === '+') most = Infinity;
    else if (char === '?') most = 1;
    else if (char === '{') {
      const bound = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index));
      if (bound) {
        const least = Number(bound[1]);
        most = bound[2] === undefined ? least : bound[3] ? Number(bound[3]) : Infinity;
        if (least > MAX_REPEAT_COUNT || (most !== Infinity && most > MAX_REPEAT_COUNT)) {
          return `a counted repeat {m,n} goes up to ${MAX_REPEAT_COUNT}`;
        }
        index += bound[0].length - 1;
      }
    }
    if (most === undefined) {
      previous = 'atom';
      continue;
    }
    if (pattern[index + 1] === '?') index++; // non-greedy
    if (previous === 'quantifier') return 'a quantifier cannot follow another quantifier';
    if (previous === 'group' && groupQuantified && most > 1) {
      return 'a repeated group cannot contain a quantifier itself (as in (a+)+ or (.{0,9}){2})';
    }
    quantifiedInside = true;
    previous = 'quantifier';
  }
  return null;
}

/** The index of the `]` that ends the bracket expression opening at `start` (or the end). */
function bracketEnd(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '^') index++;
  if (pattern[index] === ']') index++; // a leading `]` is a member
  for (; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === ']') return index;
    if (char === '\\') index++;
    else if (char === '[' && /[:.=]/.test(pattern[index + 1] ?? '')) {
      const close = pattern.indexOf(`${pattern[index + 1]}]`, index + 2);
      if (close === -1) return pattern.length;
      index = close + 1;
    }
  }
  return pattern.length;
}

/** The elements of an array literal `{a,"b\\"c"}` as PostgreSQL reads them (nesting flattened). */
function arrayElements(literal: string): string[] {
  const elements: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (let index = 0; index < literal.length; index++) {
    const char = literal[index]!;
    if (char === '\\') {
      current += literal[index + 1] ?? '';
      started = true;
      index++;
    } else if (char === '"') {
      quoted = !quoted;
      started = true;
    } else if (quoted) current += char;
    else if (char === '{' || char === '}' || char === ',') {
      if (started) elements.push(current.trim());
      current = '';
      started = false;
    } else {
      current += char;
      if (!/\s/.test(char)) started = true;
    }
  }
  if (started) elements.push(current.trim());
  return elements;
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

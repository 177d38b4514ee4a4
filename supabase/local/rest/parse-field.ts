/**
 * Column references as they appear in `select`, filters and `order`: a column name, optionally
 * followed by JSON path steps (`data->key`, `data->>key`, `arr->0`).
 */
import { parseError } from './errors';

export type JsonOp = '->' | '->>';

export interface JsonStep {
  op: JsonOp;
  key: string;
  /** Integer keys index arrays (`arr->0`); others are object keys. */
  isIndex: boolean;
}

export interface Field {
  column: string;
  path: JsonStep[];
}

/** The output key PostgREST uses for a field: the last JSON key, else the column. */
export function fieldLabel(field: Field): string {
  return field.path.at(-1)?.key ?? field.column;
}

const NAME_STOP = new Set([',', ':', '(', ')', '!', '.', '-', '>', '"']);

/** Reads a name (bare or double-quoted) from `text` at `start`; returns it and the next index. */
export function readName(text: string, start: number, what: string): [string, number] {
  if (text[start] === '"') {
    let value = '';
    let index = start + 1;
    while (index < text.length && text[index] !== '"') {
      if (text[index] === '\\' && index + 1 < text.length) index++;
      value += text[index];
      index++;
    }
    if (index >= text.length) throw parseError(what, text, 'unexpected end of input, expecting "\\""');
    return [value, index + 1];
  }
  let index = start;
  while (index < text.length && !NAME_STOP.has(text[index]!)) index++;
  if (index === start) {
    throw parseError(what, text, `unexpected ${JSON.stringify(text[start] ?? 'end of input')} expecting field name`);
  }
  // `a-b` is a legal name when the dash is not the start of an arrow.
  if (text[index] === '-' && text[index + 1] !== '>') {
    const [rest, next] = readName(text, index + 1, what);
    return [`${text.slice(start, index)}-${rest}`, next];
  }
  return [text.slice(start, index), index];
}

/** Parses `column(->key|->>key)*` starting at `start`. */
export function readField(text: string, start: number, what: string): [Field, number] {
  const [column, afterColumn] = readName(text, start, what);
  const path: JsonStep[] = [];
  let index = afterColumn;
  while (text.startsWith('->', index)) {
    const op: JsonOp = text.startsWith('->>', index) ? '->>' : '->';
    index += op.length;
    const negative = /^-\d/.test(text.slice(index));
    const [key, next] = negative ? readName(text, index + 1, what) : readName(text, index, what);
    const fullKey = negative ? `-${key}` : key;
    path.push({ op, key: fullKey, isIndex: /^-?\d+$/.test(fullKey) });
    index = next;
  }
  return [{ column, path }, index];
}

/** Parses a whole string as one field (filter keys, order terms). */
export function parseField(text: string, what: string): Field {
  const [field, end] = readField(text, 0, what);
  if (end !== text.length) {
    throw parseError(what, text, `unexpected ${JSON.stringify(text[end])} expecting end of input`);
  }
  return field;
}

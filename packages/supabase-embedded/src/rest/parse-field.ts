/**
 * The one tokenizer of the query grammar (`select`, filter keys, logic trees, `order`,
 * `columns`, `on_conflict`) and column references: a column name, optionally followed by JSON
 * path steps (`data->key`, `data->>key`, `arr->0`).
 *
 * Quoting is decided here once, by PostgREST's rule: a name in double quotes runs to the next
 * unescaped `"`, and a backslash takes the next character as it is. Everything downstream (the
 * whitespace that `select` drops, names, symbols) reads these tokens, never the raw text, so no
 * two readers can disagree about where a quoted name ends. Names are data: the SQL builder
 * always quotes them (sql.ts `ident`).
 */
import { parseError, type RestError } from './errors';

export type JsonOp = '->' | '->>';

export interface JsonStep {
  op: JsonOp;
  key: string;
  /** Bare integer keys index arrays (`arr->0`); others are object keys. */
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

export interface Token {
  kind: 'name' | 'symbol';
  text: string;
  /** A name written in double quotes (never a keyword, a star, an index or a type). */
  quoted: boolean;
}

/** Longest first: `...` before `.`, `->>` before `->`, `::` before `:`. A lone `-` belongs to names. */
const SYMBOLS = ['...', '->>', '->', '::', ',', ':', '(', ')', '!', '.', '>'];

/** Index just past the quoted name opening at `start` (`text[start] === '"'`), or -1 if unterminated. */
function quotedEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === '"') return index + 1;
  }
  return -1;
}

function unescapeQuoted(raw: string): string {
  return raw.slice(1, -1).replace(/\\([\s\S])/g, '$1');
}

/**
 * `text` with every quoted name blanked out (same length), so a caller can look for separators
 * (`.`, `->`) outside quotes with indexOf. Unterminated quotes blank the rest.
 */
export function maskQuoted(text: string): string {
  let result = '';
  let index = 0;
  while (index < text.length) {
    if (text[index] !== '"') {
      result += text[index++];
      continue;
    }
    const end = quotedEnd(text, index);
    const stop = end === -1 ? text.length : end;
    result += '_'.repeat(stop - index);
    index = stop;
  }
  return result;
}

/**
 * Splits `text` into names and symbols. With `dropWhitespace` (the `select` parameter, as
 * postgrest-js sends it) whitespace outside quotes is removed first, so `a b` is the name `ab`;
 * otherwise it is part of names, as in filter keys.
 */
export function tokenize(text: string, what: string, dropWhitespace: boolean): Token[] {
  const tokens: Token[] = [];
  let bare = '';
  const flush = () => {
    let index = 0;
    while (index < bare.length) {
      const symbol = SYMBOLS.find((candidate) => bare.startsWith(candidate, index));
      if (symbol) {
        tokens.push({ kind: 'symbol', text: symbol, quoted: false });
        index += symbol.length;
        continue;
      }
      let end = index + 1;
      while (end < bare.length && !SYMBOLS.some((candidate) => bare.startsWith(candidate, end))) end++;
      tokens.push({ kind: 'name', text: bare.slice(index, end), quoted: false });
      index = end;
    }
    bare = '';
  };
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      const end = quotedEnd(text, index);
      if (end === -1) throw parseError(what, text, 'unexpected end of input, expecting "\\""');
      flush();
      tokens.push({ kind: 'name', text: unescapeQuoted(text.slice(index, end)), quoted: true });
      index = end;
      continue;
    }
    if (!(dropWhitespace && /\s/.test(char))) bare += char;
    index++;
  }
  flush();
  return tokens;
}

/** A cursor over tokens with PostgREST-shaped errors. */
export class TokenStream {
  private index = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly what: string,
    private readonly source: string,
  ) {}

  get done(): boolean {
    return this.index >= this.tokens.length;
  }

  peek(offset = 0): Token | undefined {
    return this.tokens[this.index + offset];
  }

  next(): Token | undefined {
    return this.tokens[this.index++];
  }

  isSymbol(symbol: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === 'symbol' && token.text === symbol;
  }

  /** A bare (unquoted) name with exactly this text: keywords such as `inner`, `asc`, `*`. */
  isWord(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === 'name' && !token.quoted && token.text === word;
  }

  expectSymbol(symbol: string): void {
    if (!this.isSymbol(symbol)) throw this.fail(JSON.stringify(symbol));
    this.index++;
  }

  /** The next token as a name (bare or quoted, never empty). */
  name(expecting = 'field name'): Token {
    const token = this.peek();
    if (token?.kind !== 'name' || token.text === '') throw this.fail(expecting);
    this.index++;
    return token;
  }

  fail(expecting: string): RestError {
    const token = this.peek();
    const found = token ? JSON.stringify(token.text) : 'end of input';
    return parseError(this.what, this.source, `unexpected ${found} expecting ${expecting}`);
  }

  /** A well-formed text over a limit: the limit in `details`, the text shown cut at 200 characters. */
  refuse(limit: string): RestError {
    const shown = this.source.length > 200 ? `${this.source.slice(0, 200)}…` : this.source;
    return parseError(this.what, shown, limit);
  }
}

/** Reads `column(->key|->>key)*`. */
export function readField(stream: TokenStream): Field {
  const column = stream.name().text;
  const path: JsonStep[] = [];
  while (stream.isSymbol('->') || stream.isSymbol('->>')) {
    const op = stream.next()!.text as JsonOp;
    const key = stream.name('a JSON key or index');
    path.push({ op, key: key.text, isIndex: !key.quoted && /^-?\d+$/.test(key.text) });
  }
  return { column, path };
}

/** Parses a whole string as one field (filter keys). */
export function parseField(text: string, what: string): Field {
  const stream = new TokenStream(tokenize(text, what, false), what, text);
  const field = readField(stream);
  if (!stream.done) throw stream.fail('end of input');
  return field;
}

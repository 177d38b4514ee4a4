/** Small SQL-writing helpers: identifier quoting and a parameter list. */
import { RestError } from './errors';

/** Quotes an identifier the way `quote_ident` does; NUL bytes cannot reach Postgres. */
export function ident(name: string): string {
  if (name.includes('\0')) throw new RestError(400, 'PGRST100', 'Identifiers cannot contain NUL bytes');
  return `"${name.replace(/"/g, '""')}"`;
}

export function qualified(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`;
}

/** Collects bound values; `add` returns the `$n` placeholder. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown, cast?: string): string {
    if (typeof value === 'string' && value.includes('\0')) {
      throw new RestError(400, '22021', 'invalid byte sequence for encoding "UTF8": 0x00');
    }
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

/** A Postgres array literal `{"a","b"}` for binding `= any($n)`. */
export function arrayLiteral(items: string[]): string {
  return `{${items.map((item) => (item.toLowerCase() === 'null' ? 'NULL' : `"${item.replace(/(["\\])/g, '\\$1')}"`)).join(',')}}`;
}

/**
 * Small SQL-writing helpers: identifier quoting, the casts a client may ask for, and a parameter
 * list. Client text reaches a statement only as a quoted identifier (`ident`) or a bound
 * parameter (`Params`); a cast is looked up here and written from this table, never pasted.
 */
import { RestError } from './errors';

/** Quotes an identifier the way `quote_ident` does; NUL bytes and empty names cannot reach Postgres. */
export function ident(name: string): string {
  if (name.includes('\0')) throw new RestError(400, 'PGRST100', 'Identifiers cannot contain NUL bytes');
  if (name === '') throw new RestError(400, 'PGRST100', 'Identifiers cannot be empty');
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The types `select=col::type` may cast to (the spellings PostgREST clients use, lower case) and
 * the built-in type each one means. A cast is one of these, optionally with `[]`.
 */
const CASTS: Record<string, string> = {
  text: 'text',
  varchar: 'varchar',
  smallint: 'int2',
  int2: 'int2',
  int: 'int4',
  integer: 'int4',
  int4: 'int4',
  bigint: 'int8',
  int8: 'int8',
  numeric: 'numeric',
  decimal: 'numeric',
  real: 'float4',
  float4: 'float4',
  float: 'float8',
  float8: 'float8',
  bool: 'bool',
  boolean: 'bool',
  json: 'json',
  jsonb: 'jsonb',
  date: 'date',
  time: 'time',
  timetz: 'timetz',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
  interval: 'interval',
  uuid: 'uuid',
  tsvector: 'tsvector',
};

/** The allow-listed cast a client wrote (`TEXT`, `int[]`), normalised, or undefined. */
export function allowedCast(written: string): string | undefined {
  const name = written.toLowerCase();
  const base = name.endsWith('[]') ? name.slice(0, -2) : name;
  return Object.hasOwn(CASTS, base) ? name : undefined;
}

/** SQL for an allow-listed cast: the schema-qualified built-in type from the table above. */
export function castSql(cast: string): string {
  const array = cast.endsWith('[]');
  const base = array ? cast.slice(0, -2) : cast;
  if (!Object.hasOwn(CASTS, base))
    throw new RestError(400, 'PGRST100', `Casting to ${JSON.stringify(cast)} is not allowed`);
  return `pg_catalog.${CASTS[base]}${array ? '[]' : ''}`;
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

/**
 * A relation in a query being built (the requested table, an embedded table, a function's
 * result set) and how a field of it becomes SQL. Columns are checked against the schema cache.
 */
import { columnNotFound } from './errors';
import type { Field } from './parse-field';
import type { Table } from './schema-cache';
import { ident, type Params } from './sql';

export interface Relation {
  /** Table from the schema cache, or undefined for a function result (columns not known). */
  table?: Table;
  /** Name shown in error messages (`column <label>.x does not exist`). */
  label: string;
  /** Alias the SQL uses for this relation. */
  alias: string;
}

export function columnRef(relation: Relation, column: string): string {
  if (relation.table && !relation.table.columns.has(column)) throw columnNotFound(relation.label, column);
  return `${ident(relation.alias)}.${ident(column)}`;
}

export function fieldExpr(relation: Relation, field: Field, params: Params): string {
  let sql = columnRef(relation, field.column);
  for (const step of field.path) {
    const key = step.isIndex ? params.add(Number(step.key), 'int') : params.add(step.key, 'text');
    sql = `(${sql}${step.op}${key})`;
  }
  return sql;
}

/** The column type when the field is a plain column; JSON paths yield json/text. */
export function fieldType(relation: Relation, field: Field): string | undefined {
  if (field.path.length > 0) return field.path.at(-1)?.op === '->>' ? 'text' : 'jsonb';
  return relation.table?.columns.get(field.column)?.type;
}

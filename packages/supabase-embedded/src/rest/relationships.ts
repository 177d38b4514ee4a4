/** Finds the foreign key an embed `rel!hint(...)` follows, or explains why it cannot. */
import { RestError } from './errors';
import type { ForeignKey, SchemaSnapshot, Table } from './schema-cache';

export interface Relationship {
  /**
   * `one-to-one`: the referencing side's foreign key columns are also its primary key or a unique
   * key, so at most one row matches; embedded as an object (or null) from both ends, as
   * PostgREST 11+ does.
   */
  kind: 'many-to-one' | 'one-to-many' | 'one-to-one';
  target: Table;
  /** Column pairs: [parent column, target column]. */
  pairs: [string, string][];
}

export function resolveRelationship(
  snapshot: SchemaSnapshot,
  parent: Table,
  relation: string,
  hint: string | undefined,
): Relationship {
  const candidates: (Relationship & { fk: ForeignKey })[] = [];
  for (const fk of snapshot.foreignKeys) {
    if (fk.foreignSchema !== parent.schema) continue;
    const byColumn = fk.columns.length === 1 && fk.columns[0] === relation;
    if (fk.table === parent.name && (fk.foreignTable === relation || byColumn)) {
      const target = snapshot.tables.get(fk.foreignTable);
      if (target) candidates.push({ kind: 'many-to-one', target, pairs: zip(fk.columns, fk.foreignColumns), fk });
    }
    if (fk.foreignTable === parent.name && fk.table === relation) {
      const target = snapshot.tables.get(fk.table);
      if (target) {
        const kind = isUniqueIn(target, fk.columns) ? 'one-to-one' : 'one-to-many';
        candidates.push({ kind, target, pairs: zip(fk.foreignColumns, fk.columns), fk });
      }
    }
  }
  const matching = hint
    ? candidates.filter(
        (candidate) =>
          candidate.fk.name === hint ||
          (candidate.fk.columns.length === 1 && candidate.fk.columns[0] === hint) ||
          candidate.target.name === hint,
      )
    : candidates;
  const first = matching[0];
  if (!first) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${relation}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent.name}' and '${relation}'${hint ? ` using the hint '${hint}'` : ''} in the schema '${parent.schema}', but no matches were found.`,
      null,
    );
  }
  if (matching.length > 1) {
    throw new RestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent.name}' and '${relation}'`,
      JSON.stringify(matching.map((candidate) => ({ cardinality: candidate.kind, relationship: candidate.fk.name }))),
      `Try changing '${relation}' to one of the following: ${matching.map((candidate) => `'${relation}!${candidate.fk.name}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
    );
  }
  return first;
}

function isUniqueIn(table: Table, columns: string[]): boolean {
  const wanted = new Set(columns);
  return table.uniqueKeys.some((key) => key.length === wanted.size && key.every((column) => wanted.has(column)));
}

function zip(left: string[], right: string[]): [string, string][] {
  return left.map((value, index) => [value, right[index] ?? value]);
}

/**
 * `POST /object/list/<bucket>` (storage.search semantics): the files and folders directly under
 * `prefix`, filtered by `search`, sorted and paged. Folders come back with `id: null`.
 */
import { jsonResponse } from '../context';
import { withClaims, type Claims, type Database } from '../database';
import { invalidRequest } from './errors';

interface ListedRow {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

const SORTABLE = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export async function listObjects(db: Database, claims: Claims, bucketId: string, body: Record<string, unknown>) {
  const prefix = typeof body.prefix === 'string' ? body.prefix.replace(/^\/+/, '') : '';
  const folder = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
  const search = typeof body.search === 'string' ? body.search.toLowerCase() : '';
  const limit = Number(body.limit ?? 100);
  const offset = Number(body.offset ?? 0);
  if (!Number.isInteger(limit) || limit < 0 || !Number.isInteger(offset) || offset < 0) {
    throw invalidRequest('limit and offset must be non-negative integers');
  }
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const column = typeof sortBy.column === 'string' && SORTABLE.has(sortBy.column) ? sortBy.column : 'name';
  const descending = typeof sortBy.order === 'string' && sortBy.order.toLowerCase() === 'desc';

  const result = await withClaims(db, claims, (tx) =>
    tx.query<ListedRow>(
      `select name, id, to_json(updated_at)#>>'{}' as updated_at, to_json(created_at)#>>'{}' as created_at,
         to_json(last_accessed_at)#>>'{}' as last_accessed_at, metadata
       from storage.objects where bucket_id = $1 and name like $2 escape '\\'`,
      [bucketId, `${escapeLike(folder)}%`],
    ),
  );
  const entries = new Map<string, ListedRow>();
  for (const row of result.rows) {
    const rest = row.name.slice(folder.length);
    const slash = rest.indexOf('/');
    const name = slash === -1 ? rest : rest.slice(0, slash);
    if (name === '' || !name.toLowerCase().startsWith(search)) continue;
    if (slash === -1) entries.set(`f:${name}`, { ...row, name });
    else if (!entries.has(`d:${name}`)) {
      entries.set(`d:${name}`, {
        name,
        id: null,
        updated_at: null,
        created_at: null,
        last_accessed_at: null,
        metadata: null,
      });
    }
  }
  const sorted = [...entries.values()].sort((a, b) => {
    const left = a[column as keyof ListedRow] as string | null;
    const right = b[column as keyof ListedRow] as string | null;
    let order = 0;
    if (left !== right) {
      if (left === null) order = 1;
      else if (right === null) order = -1;
      else order = left < right ? -1 : 1;
    }
    if (order === 0) order = a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    return descending ? -order : order;
  });
  return jsonResponse(sorted.slice(offset, offset + limit));
}

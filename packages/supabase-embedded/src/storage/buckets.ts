/** `/bucket` routes: list, get, create, update, empty, delete — as the caller, under RLS. */
import { withClaims, type Claims, type Database } from '../database';
import { jsonResponse } from '../context';
import type { BlobStore } from './blob-store';
import { bucketNotFound, invalidRequest, StorageError } from './errors';
import { checkBucketName } from './keys';

export interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  created_at: string;
  updated_at: string;
}

const BUCKET_COLUMNS = `id, name, owner, public, file_size_limit::float8 as file_size_limit, allowed_mime_types,
  to_json(created_at)#>>'{}' as created_at, to_json(updated_at)#>>'{}' as updated_at`;

const present = (row: BucketRow) => ({ ...row, type: 'STANDARD' });

/** Bucket metadata as the storage service itself (no RLS): used to apply bucket rules. */
export async function findBucket(db: Database, id: string): Promise<BucketRow | null> {
  const result = await db.query<BucketRow>(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id]);
  return result.rows[0] ?? null;
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `file_size_limit` as given by storage-js: bytes, or a string such as "2MB". */
export function parseSizeLimit(value: unknown): number | null {
  if (value === undefined || value === null || value === '' || value === 0) return null;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.floor(value);
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value.trim()) : null;
  if (!match) throw invalidRequest('Invalid file size limit');
  return Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]!);
}

function parseMimeTypes(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && /^[\w.+-]+\/[\w.+*-]+$/.test(item))) {
    throw invalidRequest('Invalid allowed_mime_types');
  }
  return value.length > 0 ? (value as string[]) : null;
}

export async function handleBuckets(
  db: Database,
  blobs: BlobStore,
  claims: Claims,
  method: string,
  segments: string[],
  body: Record<string, unknown>,
): Promise<Response> {
  const [id, action] = segments;
  if (id === undefined) {
    if (method === 'GET') {
      const rows = await withClaims(db, claims, (tx) =>
        tx.query<BucketRow>(`select ${BUCKET_COLUMNS} from storage.buckets order by name`),
      );
      return jsonResponse(rows.rows.map(present));
    }
    if (method === 'POST') {
      const name = checkBucketName(body.name ?? body.id);
      const bucketId = checkBucketName(body.id ?? name);
      const owner = typeof claims.sub === 'string' ? claims.sub : null;
      await withClaims(db, claims, (tx) =>
        tx.query(
          `insert into storage.buckets (id, name, owner, public, file_size_limit, allowed_mime_types)
           values ($1, $2, $3::uuid, $4, $5, $6)`,
          [
            bucketId,
            name,
            owner && /^[0-9a-f-]{36}$/i.test(owner) ? owner : null,
            body.public === true,
            parseSizeLimit(body.file_size_limit),
            parseMimeTypes(body.allowed_mime_types),
          ],
        ),
      );
      return jsonResponse({ name: bucketId });
    }
  } else if (action === undefined) {
    if (method === 'GET') {
      const rows = await withClaims(db, claims, (tx) =>
        tx.query<BucketRow>(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id]),
      );
      const row = rows.rows[0];
      if (!row) throw bucketNotFound();
      return jsonResponse(present(row));
    }
    if (method === 'PUT') {
      const result = await withClaims(db, claims, (tx) =>
        tx.query(
          `update storage.buckets set public = coalesce($2, public),
             file_size_limit = case when $3 then $4 else file_size_limit end,
             allowed_mime_types = case when $5 then $6 else allowed_mime_types end, updated_at = now()
           where id = $1`,
          [
            id,
            typeof body.public === 'boolean' ? body.public : null,
            'file_size_limit' in body,
            parseSizeLimit(body.file_size_limit),
            'allowed_mime_types' in body,
            parseMimeTypes(body.allowed_mime_types),
          ],
        ),
      );
      if (!result.affectedRows) throw bucketNotFound();
      return jsonResponse({ message: 'Successfully updated' });
    }
    if (method === 'DELETE') {
      // The caller's policies decide first: a bucket they may not delete is "not found", empty or
      // not. Only a delete they may make can fail on the objects still in it (their foreign key).
      const result = await withClaims(db, claims, (tx) =>
        tx.query('delete from storage.buckets where id = $1', [id]),
      ).catch((error: unknown) => {
        if ((error as { code?: unknown }).code !== '23503') throw error;
        throw new StorageError(
          409,
          'InvalidRequest',
          'The bucket you tried to delete is not empty',
          '409',
          'InvalidRequest',
        );
      });
      if (!result.affectedRows) throw bucketNotFound();
      return jsonResponse({ message: 'Successfully deleted' });
    }
  } else if (action === 'empty' && method === 'POST' && segments.length === 2) {
    if (!(await findBucket(db, id))) throw bucketNotFound();
    const removed = await withClaims(db, claims, (tx) =>
      tx.query<{ name: string }>('delete from storage.objects where bucket_id = $1 returning name', [id]),
    );
    await Promise.all(removed.rows.map((row) => blobs.remove(id, row.name).catch(() => {})));
    return jsonResponse({ message: 'Successfully emptied' });
  }
  throw new StorageError(404, 'not_found', 'Route not found', '404', 'NotFound');
}

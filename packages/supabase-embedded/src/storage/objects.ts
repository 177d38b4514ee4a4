/**
 * Object routes: upload, update, download (authenticated, public, signed), info, remove, list,
 * move, copy and signed URLs. Metadata rows are read and written as the caller so the policies
 * on storage.objects decide; bucket rules (size, mime types, public) are read as the service.
 */
import { createHash, randomUUID } from 'node:crypto';
import { jsonResponse } from '../context';
import { withClaims, type Claims, type Database } from '../database';
import type { Keys } from '../keys';
import { ownerOf } from './auth';
import type { BlobStore } from './blob-store';
import { findBucket } from './buckets';
import {
  bucketNotFound,
  invalidJwt,
  invalidMime,
  invalidRequest,
  mimeMismatch,
  objectNotFound,
  tooLarge,
} from './errors';
import { checkObjectKey } from './keys';
import { bytesMatchImageType, mimeAllowed, readUpload } from './upload-body';

export interface ObjectServices {
  db: Database;
  blobs: BlobStore;
  keys: Keys;
}

interface ObjectMetadata {
  eTag?: string;
  size?: number;
  mimetype?: string;
  cacheControl?: string;
  lastModified?: string;
}

interface ObjectRow {
  id: string;
  name: string;
  bucket_id: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

const OBJECT_COLUMNS = `id, name, bucket_id, owner, owner_id, version, metadata, user_metadata,
  to_json(created_at)#>>'{}' as created_at, to_json(updated_at)#>>'{}' as updated_at,
  to_json(last_accessed_at)#>>'{}' as last_accessed_at`;

export async function uploadObject(
  services: ObjectServices,
  claims: Claims,
  request: Request,
  bucketId: string,
  rawKey: string,
  mode: 'create' | 'update',
  forceUpsert = false,
): Promise<Response> {
  const key = checkObjectKey(rawKey);
  const bucket = await findBucket(services.db, bucketId);
  if (!bucket) throw bucketNotFound();
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (bucket.file_size_limit && declared > bucket.file_size_limit + 64 * 1024) throw tooLarge();
  const upload = await readUpload(request);
  if (bucket.file_size_limit && upload.bytes.byteLength > bucket.file_size_limit) throw tooLarge();
  if (!mimeAllowed(upload.contentType, bucket.allowed_mime_types)) throw invalidMime(upload.contentType);
  if (!bytesMatchImageType(upload.contentType, upload.bytes)) throw mimeMismatch(upload.contentType.split(';')[0]!);

  const now = new Date().toISOString();
  const metadata = {
    eTag: `"${createHash('md5').update(upload.bytes).digest('hex')}"`,
    size: upload.bytes.byteLength,
    mimetype: upload.contentType,
    cacheControl: upload.cacheControl,
    lastModified: now,
    contentLength: upload.bytes.byteLength,
    httpStatusCode: 200,
  };
  const owner = ownerOf(claims);
  const ownerId = typeof claims.sub === 'string' ? claims.sub : null;
  const version = randomUUID();
  const upsert = mode === 'create' && (forceUpsert || request.headers.get('x-upsert') === 'true');
  const id = await withClaims(services.db, claims, async (tx) => {
    let objectId: string | undefined;
    const values = [
      bucketId,
      key,
      owner,
      ownerId,
      JSON.stringify(metadata),
      JSON.stringify(upload.userMetadata),
      version,
    ];
    if (mode === 'update') {
      const result = await tx.query<{ id: string }>(
        `update storage.objects set owner = $3, owner_id = $4, metadata = $5, user_metadata = $6, version = $7,
           updated_at = now(), last_accessed_at = now()
         where bucket_id = $1 and name = $2 returning id`,
        values,
      );
      objectId = result.rows[0]?.id;
      if (!objectId) throw objectNotFound();
    } else if (upsert) {
      const result = await tx.query<{ id: string }>(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id,
           metadata = excluded.metadata, user_metadata = excluded.user_metadata, version = excluded.version,
           updated_at = now(), last_accessed_at = now()
         returning id`,
        values,
      );
      objectId = result.rows[0]?.id;
    } else {
      objectId = randomUUID();
      await tx.query(
        `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($8, $1, $2, $3, $4, $5, $6, $7)`,
        [...values, objectId],
      );
    }
    await services.blobs.put(bucketId, key, upload.bytes);
    return objectId;
  });
  return jsonResponse({ Id: id, Key: `${bucketId}/${key}` });
}

async function fileResponse(services: ObjectServices, row: ObjectRow, head: boolean): Promise<Response> {
  const bytes = await services.blobs.get(row.bucket_id, row.name);
  if (!bytes) throw objectNotFound();
  const metadata = row.metadata ?? {};
  const headers: Record<string, string> = {
    'content-type': metadata.mimetype ?? 'application/octet-stream',
    'content-length': String(bytes.byteLength),
    'cache-control': metadata.cacheControl ?? 'max-age=3600',
    'last-modified': new Date(metadata.lastModified ?? row.updated_at).toUTCString(),
    'x-content-type-options': 'nosniff',
  };
  if (metadata.eTag) headers.etag = metadata.eTag;
  return new Response(head ? null : (bytes as Uint8Array<ArrayBuffer>), { status: 200, headers });
}

async function findObjectAs(
  services: ObjectServices,
  claims: Claims,
  bucketId: string,
  key: string,
): Promise<ObjectRow> {
  const result = await withClaims(services.db, claims, (tx) =>
    tx.query<ObjectRow>(`select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`, [
      bucketId,
      key,
    ]),
  );
  const row = result.rows[0];
  if (!row) throw objectNotFound();
  return row;
}

async function findObjectAsService(services: ObjectServices, bucketId: string, key: string): Promise<ObjectRow> {
  const result = await services.db.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucketId, key],
  );
  const row = result.rows[0];
  if (!row) throw objectNotFound();
  return row;
}

export async function downloadObject(
  services: ObjectServices,
  claims: Claims,
  bucketId: string,
  key: string,
  head: boolean,
): Promise<Response> {
  return fileResponse(services, await findObjectAs(services, claims, bucketId, checkObjectKey(key)), head);
}

export async function downloadPublic(services: ObjectServices, bucketId: string, key: string, head: boolean) {
  const bucket = await findBucket(services.db, bucketId);
  if (!bucket || !bucket.public) throw bucketNotFound();
  return fileResponse(services, await findObjectAsService(services, bucketId, checkObjectKey(key)), head);
}

/**
 * What a signed URL's token allows: reading the object (`createSignedUrl`) or writing it
 * (`createSignedUploadUrl`). Both kinds are signed with the same key, so each carries its
 * purpose and each endpoint accepts only its own kind.
 */
export type SignedTokenPurpose = 'download' | 'upload';

export function signToken(
  services: ObjectServices,
  purpose: SignedTokenPurpose,
  bucketId: string,
  key: string,
  seconds: number,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return services.keys.sign({ ...extra, url: `${bucketId}/${key}`, purpose }, seconds);
}

/**
 * The claims of a signed URL's token: valid, unexpired, issued for exactly `bucketId/key` and
 * for `purpose`; anything else is the 400 a signed URL answers.
 */
export async function verifySignedToken(
  services: ObjectServices,
  purpose: SignedTokenPurpose,
  bucketId: string,
  key: string,
  token: string | null,
): Promise<Record<string, unknown>> {
  if (!token) throw invalidJwt('jwt must be provided');
  let payload: Record<string, unknown>;
  try {
    payload = (await services.keys.verify(token)) as Record<string, unknown>;
  } catch (error) {
    throw invalidJwt((error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'jwt expired' : 'invalid signature');
  }
  if (payload.url !== `${bucketId}/${key}` || payload.purpose !== purpose) throw invalidJwt('invalid signature');
  return payload;
}

export async function downloadSigned(
  services: ObjectServices,
  bucketId: string,
  key: string,
  token: string | null,
  head: boolean,
): Promise<Response> {
  await verifySignedToken(services, 'download', bucketId, key, token);
  return fileResponse(services, await findObjectAsService(services, bucketId, checkObjectKey(key)), head);
}

export async function objectInfo(services: ObjectServices, claims: Claims, bucketId: string, key: string) {
  const row = await findObjectAs(services, claims, bucketId, checkObjectKey(key));
  return jsonResponse({
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: row.metadata?.size ?? null,
    content_type: row.metadata?.mimetype ?? null,
    cache_control: row.metadata?.cacheControl ?? null,
    etag: row.metadata?.eTag ?? null,
    metadata: row.user_metadata,
    last_modified: row.updated_at,
    created_at: row.created_at,
  });
}

function expiresInOf(value: unknown): number {
  const seconds = typeof value === 'string' ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > 10 * 365 * 24 * 3600) {
    throw invalidRequest('expiresIn must be a positive integer');
  }
  return seconds;
}

async function signedPath(services: ObjectServices, bucketId: string, key: string, expiresIn: number) {
  const token = await signToken(services, 'download', bucketId, key, expiresIn);
  return `/object/sign/${bucketId}/${key}?token=${token}`;
}

export async function signObject(
  services: ObjectServices,
  claims: Claims,
  bucketId: string,
  key: string,
  body: Record<string, unknown>,
) {
  const expiresIn = expiresInOf(body.expiresIn);
  await findObjectAs(services, claims, bucketId, checkObjectKey(key));
  return jsonResponse({ signedURL: await signedPath(services, bucketId, key, expiresIn) });
}

export async function signObjects(
  services: ObjectServices,
  claims: Claims,
  bucketId: string,
  body: Record<string, unknown>,
) {
  const expiresIn = expiresInOf(body.expiresIn);
  const paths = body.paths;
  if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string')) {
    throw invalidRequest('paths must be an array of strings');
  }
  const visible = await withClaims(services.db, claims, (tx) =>
    tx.query<{ name: string }>('select name from storage.objects where bucket_id = $1 and name = any($2)', [
      bucketId,
      paths,
    ]),
  );
  const found = new Set(visible.rows.map((row) => row.name));
  const entries = await Promise.all(
    (paths as string[]).map(async (path) =>
      found.has(path)
        ? { error: null, path, signedURL: await signedPath(services, bucketId, path, expiresIn) }
        : { error: 'Either the object does not exist or you do not have access to it', path, signedURL: null },
    ),
  );
  return jsonResponse(entries);
}

export async function removeObjects(services: ObjectServices, claims: Claims, bucketId: string, keys: string[]) {
  const removed = await withClaims(services.db, claims, (tx) =>
    tx.query<ObjectRow>(
      `delete from storage.objects where bucket_id = $1 and name = any($2) returning ${OBJECT_COLUMNS}`,
      [bucketId, keys],
    ),
  );
  await Promise.all(removed.rows.map((row) => services.blobs.remove(bucketId, row.name).catch(() => {})));
  return removed.rows;
}

export async function removePrefixes(
  services: ObjectServices,
  claims: Claims,
  bucketId: string,
  body: Record<string, unknown>,
) {
  const prefixes = body.prefixes;
  if (!Array.isArray(prefixes) || !prefixes.every((prefix) => typeof prefix === 'string')) {
    throw invalidRequest('prefixes must be an array of strings');
  }
  const keys = (prefixes as string[]).filter((prefix) => {
    try {
      checkObjectKey(prefix);
      return true;
    } catch {
      return false;
    }
  });
  return jsonResponse(await removeObjects(services, claims, bucketId, keys));
}

export async function removeOne(services: ObjectServices, claims: Claims, bucketId: string, key: string) {
  const removed = await removeObjects(services, claims, bucketId, [checkObjectKey(key)]);
  if (removed.length === 0) throw objectNotFound();
  return jsonResponse({ message: 'Successfully deleted' });
}

export async function moveOrCopy(
  services: ObjectServices,
  claims: Claims,
  body: Record<string, unknown>,
  kind: 'move' | 'copy',
) {
  const { bucketId, sourceKey, destinationKey } = body;
  const targetBucket = body.destinationBucket ?? bucketId;
  if (typeof bucketId !== 'string' || typeof targetBucket !== 'string') throw invalidRequest('bucketId is required');
  if (typeof sourceKey !== 'string' || typeof destinationKey !== 'string') {
    throw invalidRequest('sourceKey and destinationKey are required');
  }
  const from = checkObjectKey(sourceKey);
  const to = checkObjectKey(destinationKey);
  if (!(await findBucket(services.db, targetBucket))) throw bucketNotFound();
  if (kind === 'move') {
    await withClaims(services.db, claims, async (tx) => {
      const result = await tx.query(
        `update storage.objects set bucket_id = $3, name = $4, updated_at = now()
         where bucket_id = $1 and name = $2`,
        [bucketId, from, targetBucket, to],
      );
      if (!result.affectedRows) throw objectNotFound();
      await services.blobs.move(bucketId, from, targetBucket, to);
    });
    return jsonResponse({ message: 'Successfully moved' });
  }
  const id = randomUUID();
  await withClaims(services.db, claims, async (tx) => {
    const source = await tx.query<ObjectRow>(
      `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
      [bucketId, from],
    );
    const row = source.rows[0];
    if (!row) throw objectNotFound();
    await tx.query(
      `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        targetBucket,
        to,
        ownerOf(claims),
        typeof claims.sub === 'string' ? claims.sub : null,
        JSON.stringify(row.metadata),
        JSON.stringify(row.user_metadata),
        randomUUID(),
      ],
    );
    await services.blobs.copy(bucketId, from, targetBucket, to);
  });
  return jsonResponse({ Id: id, Key: `${targetBucket}/${to}` });
}

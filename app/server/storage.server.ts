/**
 * Reads of Storage with the service role. The service-role client may read everything, and
 * Storage sits beside Auth and the Data API behind one gateway, so a key must never be able to
 * leave its bucket: a key is checked segment by segment (no `.` or `..`, letters, digits, dot,
 * dash and underscore only) into a StorageKey, and each segment is percent-encoded when it goes
 * into the request. Text read from the database is never put into a Storage URL as it is.
 */
import type { AppSupabaseClient } from '~/server/supabase.server';

declare const checkedKey: unique symbol;
/** An object key that passed storageKey. */
export type StorageKey = string & { readonly [checkedKey]: true };

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** `key` as a StorageKey, or null when a segment is empty, a dot segment or has other characters. */
export function storageKey(key: string): StorageKey | null {
  if (key.length === 0 || key.length > 1024) return null;
  const segments = key.split('/');
  if (!segments.every((segment) => SEGMENT.test(segment) && !segment.includes('..'))) return null;
  return key as StorageKey;
}

/** The object's bytes (service role), or null when it cannot be read (logged). */
export async function readStorageObject(
  service: AppSupabaseClient,
  bucket: string,
  key: StorageKey,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const encoded = key.split('/').map(encodeURIComponent).join('/');
  const { data, error } = await service.storage.from(bucket).download(encoded);
  if (error || !data) {
    console.error(`Storage object could not be read (${bucket}/${key}):`, error?.message ?? 'no data');
    return null;
  }
  return new Uint8Array(await data.arrayBuffer());
}

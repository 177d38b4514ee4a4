/** Storage (`/storage/v1`): the storage-api subset @supabase/storage-js uses, over PGlite. */
import type { ServiceContext, ServiceHandler } from '../context';
import type { BlobStore } from './blob-store';
import { storageErrorResponse, toStorageError } from './errors';
import { createRouter } from './router';

/** `blobs`: where the files' bytes are kept (shared with the backups, backup.ts). */
export function createStorageService(context: ServiceContext, blobs: BlobStore): ServiceHandler {
  const route = createRouter({
    db: context.db,
    keys: context.keys,
    sessions: context.sessions,
    blobs,
  });
  return async (request, path) => {
    try {
      return await route(request, path);
    } catch (error) {
      return storageErrorResponse(toStorageError(error));
    }
  };
}

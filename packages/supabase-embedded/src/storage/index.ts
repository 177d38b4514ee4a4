/** Storage (`/storage/v1`): the storage-api subset @supabase/storage-js uses, over PGlite. */
import type { ServiceContext, ServiceHandler } from '../context';
import { createBlobStore } from './blob-store';
import { storageErrorResponse, toStorageError } from './errors';
import { createRouter } from './router';

export function createStorageService(context: ServiceContext): ServiceHandler {
  const route = createRouter({
    db: context.db,
    keys: context.keys,
    sessions: context.sessions,
    blobs: createBlobStore(context.storageDir),
  });
  return async (request, path) => {
    try {
      return await route(request, path);
    } catch (error) {
      return storageErrorResponse(toStorageError(error));
    }
  };
}

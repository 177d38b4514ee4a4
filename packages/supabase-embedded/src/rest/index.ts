/** The Data API (`/rest/v1`): a PostgREST stand-in over the embedded PGlite database. */
import type { ServiceContext, ServiceHandler } from '../context';
import { createHandler } from './handler';
import { SchemaCache } from './schema-cache';

export function createRestService(context: ServiceContext): ServiceHandler {
  return createHandler(context, new SchemaCache(context.db));
}

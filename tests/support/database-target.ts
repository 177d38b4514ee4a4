/**
 * Which database a test runs on: PGlite in memory (the `pglite` project, the default) or a
 * PostgreSQL 15+ server (the `postgres` project, `DB_TARGET=postgres`), where each call makes a
 * fresh database from the bootstrap template. The same tests, the same assertions, two targets.
 */
import { inject } from 'vitest';
import { createScratchDatabase } from '../../scripts/postgres-server.js';

export const onPostgresServer = process.env.DB_TARGET === 'postgres';

/** A new database on the server for this test, or undefined on PGlite. */
export async function scratchDatabaseUrl(): Promise<string | undefined> {
  if (!onPostgresServer) return undefined;
  return createScratchDatabase(inject('postgresUrl'), inject('postgresTemplate'));
}

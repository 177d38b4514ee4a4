/**
 * The embedded backend's own API beside Supabase's, reached only through the in-process `fetch`
 * (never the HTTP layer) and only with the service role key (ADR 067).
 *
 * `BACKUP_PATH`: `GET` answers a backup of a PGlite database as a `.tar.gz` file (backup.ts);
 * `HEAD` says whether there is one to make: 204, or 501 on a PostgreSQL server, whose backups
 * belong to its own tools.
 */
export const BACKUP_PATH = '/embedded/v1/backup';

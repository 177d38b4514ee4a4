/**
 * `POST /dashboard/database/backup`: a backup of the embedded database as a download (ADR 067),
 * written to the audit log. A resource route inside the Database section, so the same permission
 * guards it (`requireSection`, and the dashboard's middleware before any action); the page's
 * plain form posts here, and the browser saves the answer as a file, with or without JavaScript.
 * Where this backend makes no backups (a PostgreSQL server, hosted Supabase), back to the page,
 * which says how to make them.
 */
import { connectionContext } from '~/context';
import { redirectWithFlash } from '~/server/cookies.server';
import { downloadBackup } from '~/server/database-admin.server';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/database-backup';

export const BACKUP_NOT_HERE = 'This database is backed up with its own tools, not from this page.';

export async function action(args: Route.ActionArgs) {
  const { viewer } = requireSection(args);
  const download = await downloadBackup(args.context.get(connectionContext), viewer.id);
  return (
    download ?? redirectWithFlash(args.request, '/dashboard/database', { kind: 'error', message: BACKUP_NOT_HERE })
  );
}

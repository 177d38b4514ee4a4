import { CheckCircle2, Download, XCircle } from 'lucide-react';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { buttonClass } from '~/components/ui/button';
import { DataTable, type DataColumn } from '~/components/ui/data-table';
import { connectionContext, supabaseContext } from '~/context';
import { formatBytes } from '~/lib/file-size';
import { errorMeta, pageMeta } from '~/lib/meta';
import {
  backupKind,
  checkHealth,
  migrationState,
  readDatabaseOverview,
  type BackupKind,
  type HealthCheck,
  type MigrationState,
  type TableSize,
} from '~/server/database-admin.server';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/database';

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

/**
 * Database (admins, `database_operations`; ADR 067): a health check, the migrations applied and
 * pending, each table's rows and size, and the backup. Read-only: its one form downloads a backup
 * (database-backup.ts, audited), only on the embedded backend over PGlite, which makes them.
 */
export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  const connection = args.context.get(connectionContext);
  const [overview, health, backup] = await Promise.all([
    readDatabaseOverview(args.context.get(supabaseContext)),
    checkHealth(connection),
    backupKind(connection),
  ]);
  return {
    health,
    migrations: migrationState(overview),
    tables: overview.tables.toSorted((a, b) => b.bytes - a.bytes),
    databaseBytes: overview.databaseBytes,
    serverVersion: overview.serverVersion,
    backup,
  };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Database', 'The health, migrations, tables and backups of the database AgentMarket runs on.');

function Status({ ok, label, detail }: { ok: boolean; label: string; detail: string }) {
  const Icon = ok ? CheckCircle2 : XCircle;
  return (
    <div>
      <dt className="flex items-center gap-2 font-medium">
        <Icon
          aria-hidden="true"
          className={`size-5 shrink-0 ${ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}`}
        />
        {label}
      </dt>
      <dd className={`mt-1 pl-7 ${SECONDARY}`}>{detail}</dd>
    </div>
  );
}

function Health({ health, serverVersion }: { health: HealthCheck; serverVersion: string }) {
  const reached = (part: { ok: boolean; ms: number }) =>
    part.ok ? `Reachable, answered in ${part.ms} ms` : `Not reachable (gave up after ${part.ms} ms)`;
  return (
    <section aria-labelledby="database-health" className={PANEL}>
      <h2 id="database-health" className="text-lg font-semibold">
        Health check
      </h2>
      <p className={`mt-1 ${SECONDARY}`}>
        Checked from this server when the page loaded. Reload the page to check again.
      </p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        <Status
          ok={health.database.ok}
          label={`Database (PostgreSQL ${serverVersion})`}
          detail={reached(health.database)}
        />
        <Status ok={health.storage.ok} label="Storage" detail={reached(health.storage)} />
      </dl>
    </section>
  );
}

function Migrations({ migrations }: { migrations: MigrationState }) {
  const { applied, pending } = migrations;
  return (
    <section aria-labelledby="database-migrations" className={PANEL}>
      <h2 id="database-migrations" className="text-lg font-semibold">
        Migrations
      </h2>
      {applied === null ? (
        <p className={`mt-2 ${SECONDARY}`}>
          This database keeps no record of its migrations (the table supabase_migrations.schema_migrations is missing).
        </p>
      ) : (
        <>
          <p className={`mt-2 ${SECONDARY}`}>
            {applied.length} applied, {pending.length} pending. The app applies pending migrations when it starts.
          </p>
          {pending.length > 0 ? (
            <>
              <h3 className="mt-4 font-semibold">Pending</h3>
              <ul className="mt-2 list-disc pl-6 font-mono text-sm">
                {pending.map((migration) => (
                  <li key={migration.version}>
                    {migration.version} {migration.name}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {applied.length > 0 ? (
            <details className="mt-4">
              <summary className="cursor-pointer font-medium">Applied migrations, newest first</summary>
              <ol className="mt-2 flex flex-col gap-1 font-mono text-sm">
                {applied.map((migration) => (
                  <li key={migration.version}>
                    {migration.version} {migration.name}
                  </li>
                ))}
              </ol>
            </details>
          ) : null}
        </>
      )}
    </section>
  );
}

const TABLE_COLUMNS: DataColumn<TableSize>[] = [
  { header: 'Table', cell: (table) => `${table.schema}.${table.name}`, rowHeader: true, className: 'font-mono' },
  {
    header: 'Rows',
    cell: (table) => `${table.exact ? '' : 'about '}${table.rows.toLocaleString('en-US')}`,
    numeric: true,
  },
  { header: 'Size', cell: (table) => formatBytes(table.bytes), numeric: true },
];

function Tables({ tables, databaseBytes }: { tables: TableSize[]; databaseBytes: number }) {
  return (
    <section aria-labelledby="database-tables" className={PANEL}>
      <h2 id="database-tables" className="text-lg font-semibold">
        Tables
      </h2>
      <p className={`mt-2 ${SECONDARY}`}>
        The database takes {formatBytes(databaseBytes)}. Each table of the app, Auth and Storage, largest first, with
        its indexes.
      </p>
      <div className="mt-4">
        <DataTable
          caption="Tables, largest first"
          columns={TABLE_COLUMNS}
          rows={tables}
          rowKey={(table) => `${table.schema}.${table.name}`}
          framed={false}
        />
      </div>
    </section>
  );
}

const BACKUP_ELSEWHERE: Record<Exclude<BackupKind, 'embedded'>, { text: string; href: string; link: string }> = {
  postgres: {
    text: 'This app runs on a PostgreSQL server (DATABASE_URL): back it up with the server’s own tools, pg_dump or continuous archiving, and keep the Storage folder (STORAGE_DIR) with it.',
    href: 'https://www.postgresql.org/docs/current/backup.html',
    link: 'PostgreSQL: Backup and Restore',
  },
  hosted: {
    text: 'This app runs on hosted Supabase: its project takes the backups (daily, or point-in-time recovery on paid plans), and restores them from its dashboard.',
    href: 'https://supabase.com/docs/guides/platform/backups',
    link: 'Supabase: Database Backups',
  },
};

function Backup({ kind }: { kind: BackupKind }) {
  return (
    <section aria-labelledby="database-backup" className={PANEL}>
      <h2 id="database-backup" className="text-lg font-semibold">
        Backup
      </h2>

      {kind === 'embedded' ? (
        <>
          <p className={`mt-2 ${SECONDARY}`}>
            One file with the database and every stored file (packages, pictures), as they are at one moment. It holds
            everyone’s data, password hashes included: keep it as safely as the server. Each download is written to the
            audit log.
          </p>
          <p className={`mt-2 ${SECONDARY}`}>
            To restore it, stop the app and run{' '}
            <code className="font-mono">npm run db:restore &lt;file&gt; &lt;new data directory&gt;</code>, then start
            the app with EMBEDDED_DATA_DIR set to that directory (README, “Backups”).
          </p>
          {/* A document POST: the browser saves the answer as a file, with or without JavaScript. */}
          <form method="post" action="/dashboard/database/backup" className="mt-4">
            <button type="submit" className={buttonClass('secondary')}>
              <Download aria-hidden="true" className="size-4" />
              Download a backup
            </button>
          </form>
        </>
      ) : (
        <p className={`mt-2 ${SECONDARY}`}>
          {BACKUP_ELSEWHERE[kind].text}{' '}
          <a href={BACKUP_ELSEWHERE[kind].href} className="font-medium text-brand-700 underline dark:text-brand-300">
            {BACKUP_ELSEWHERE[kind].link}
          </a>
        </p>
      )}
    </section>
  );
}

export default function DatabasePage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Database</h1>
        <p className={`mt-1 ${SECONDARY}`}>
          The health of the database and Storage, the migrations, the size of each table, and backups. Nothing on this
          page changes data.
        </p>
      </header>
      <Health health={loaderData.health} serverVersion={loaderData.serverVersion} />
      <Backup kind={loaderData.backup} />
      <Migrations migrations={loaderData.migrations} />
      <Tables tables={loaderData.tables} databaseBytes={loaderData.databaseBytes} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

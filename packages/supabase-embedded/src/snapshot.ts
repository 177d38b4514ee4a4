/**
 * Snapshots of a new PGlite database (ADR 025). Making one from nothing costs PGlite's initdb,
 * the bootstrap, every migration and the seed: about 4 s on two cores. Its files are the same
 * every time for the same inputs, so the first new database is saved as a tarball in a cache
 * folder (by default `node_modules/.cache/agent-marketplace/`), and later new databases, a new
 * data directory or a test's in-memory database, are unpacked from it (about 0.6 s).
 *
 * The tarball's name is a hash of everything that decides its content: the PGlite version, the
 * extensions, bootstrap.sql, the services' schemas, every migration's name and text, and the seed
 * when there is one. A changed migration is a new name, so a stale snapshot is never used; old
 * ones are removed when a new one is saved.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ownFile } from './own-files';

/** Bumped when the way a snapshot is made changes (not its inputs: those are hashed). */
const FORMAT = 1;
const PREFIX = 'pglite-';
/** Snapshots kept: checkouts that share node_modules may have different migrations. */
const KEEP = 3;

export interface SnapshotInputs {
  /** The project's `supabase/` folder. */
  supabaseDir: string;
  /** This package's SQL files (own-files.ts) run on a new database, in order. */
  schemaFiles: readonly string[];
  /** Names of the PGlite extensions loaded. */
  extensions: readonly string[];
}

/** The default cache folder: `node_modules/.cache/agent-marketplace` beside `supabase/`. */
export function defaultSnapshotDir(supabaseDir: string): string {
  return path.join(path.dirname(supabaseDir), 'node_modules', '.cache', 'agent-marketplace');
}

/** Where the snapshot for these inputs is (or would be) kept in `dir`. */
export function snapshotFile(dir: string, inputs: SnapshotInputs): string {
  const hash = createHash('sha256');
  const part = (label: string, value: string) => hash.update(`${label}\0${value}\0`);
  part('format', String(FORMAT));
  part('pglite', pgliteVersion());
  part('extensions', inputs.extensions.join(','));
  for (const file of inputs.schemaFiles) part(file, readIfThere(ownFile(file)));
  const migrationsDir = path.join(inputs.supabaseDir, 'migrations');
  const migrations = existsSync(migrationsDir) ? readdirSync(migrationsDir).filter((f) => f.endsWith('.sql')) : [];
  for (const file of migrations.sort()) part(`migration ${file}`, readFileSync(path.join(migrationsDir, file), 'utf8'));
  return path.join(dir, `${PREFIX}${hash.digest('hex').slice(0, 24)}.tar`);
}

/**
 * Saves a new database's files (`dump`: checkpointed, as a tarball) as the snapshot `file`, and
 * removes all but the newest few.
 * Written to a temporary name and renamed, so that a process reading at the same time sees the
 * whole file or none. A cache that cannot be written (a read-only install) is only reported.
 */
export async function saveSnapshot(dump: () => Promise<Uint8Array>, file: string, log: (message: string) => void) {
  try {
    const tarball = await dump();
    const dir = path.dirname(file);
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, tarball);
    renameSync(temp, file);
    const older = readdirSync(dir)
      .filter((name) => name.startsWith(PREFIX) && name.endsWith('.tar'))
      .map((name) => ({ name, modified: statSync(path.join(dir, name)).mtimeMs }))
      .sort((a, b) => b.modified - a.modified)
      .slice(KEEP);
    for (const { name } of older) rmSync(path.join(dir, name), { force: true });
  } catch (error) {
    log(
      `Could not save the new database's snapshot to ${file} (${String(error)}); the next new database is made from nothing again`,
    );
  }
}

function readIfThere(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '(none)';
}

let version: string | undefined;

/** The installed PGlite's version (its files change with it). */
/** The installed PGlite's version (part of a snapshot's name, and written into a backup). */
export function pgliteVersion(): string {
  if (version) return version;
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  version = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

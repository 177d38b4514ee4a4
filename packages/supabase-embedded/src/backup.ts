/**
 * Backups of the embedded backend on PGlite (ADR 067): one gzipped tar file holding one moment of
 * everything a data directory keeps, and its restore into a new data directory.
 *
 *   backup.json              the format, when it was made, PGlite's version, the migrations applied
 *   pgdata.tar               the database files (PGlite's `dumpDataDir`, after a checkpoint)
 *   storage/<bucket>/<key>   each Storage file a row of `storage.objects` names
 *
 * The list of files, the database and the files' bytes are read while nothing else runs on the
 * database (`whileAlone`): an upload writes its bytes before its row commits and a removal deletes
 * the row before the bytes, so every row in the backup has its file. The signing secret is not in
 * it: a restored directory makes a new one, and every session then signs in again.
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { INITIALISED_MARKER, writeMarker } from './database';
import { ownFile } from './own-files';
import { openPGliteThread, type PGliteThreadDatabase } from './pglite-thread';
import { pgliteVersion } from './snapshot';
import { createBlobStore, type BlobStore } from './storage/blob-store';

/** Bumped when the layout of a backup changes; a restore refuses a format it does not know. */
export const BACKUP_FORMAT = 1;
const MANIFEST = 'backup.json';
const DATABASE = 'pgdata.tar';
const STORAGE = 'storage/';

export interface BackupManifest {
  format: number;
  createdAt: string;
  pglite: string;
  migrations: string[];
  files: number;
}

/** A backup of `db` and the Storage files in `blobs`, as the bytes of a `.tar.gz` file. */
export async function makeBackup(db: PGliteThreadDatabase, blobs: BlobStore): Promise<Uint8Array<ArrayBuffer>> {
  const pack = tar.pack();
  const gzipped = collect(pack.pipe(createGzip()));
  await db.whileAlone(async (alone) => {
    const migrations = (
      await alone.query<{ version: string; name: string | null }>(
        'select version, name from supabase_migrations.schema_migrations order by version',
      )
    ).rows.map((row) => `${row.version}_${row.name ?? ''}`);
    const objects = (
      await alone.query<{ bucket_id: string; name: string }>(
        'select bucket_id, name from storage.objects order by bucket_id, name',
      )
    ).rows;
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      pglite: pgliteVersion(),
      migrations,
      files: objects.length,
    };
    await entry(pack, MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await entry(pack, DATABASE, await alone.dump());
    for (const object of objects) {
      const bytes = await blobs.get(object.bucket_id, object.name);
      if (bytes) await entry(pack, `${STORAGE}${object.bucket_id}/${object.name}`, bytes);
    }
  });
  pack.finalize();
  return gzipped;
}

function entry(pack: tar.Pack, name: string, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) =>
    pack.entry({ name, size: bytes.byteLength, mode: 0o600 }, Buffer.from(bytes), (error) =>
      error ? reject(error) : resolve(),
    ),
  );
}

async function collect(stream: AsyncIterable<unknown>): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** Why a backup cannot be restored: said to the operator as it is. */
export class RestoreError extends Error {
  override name = 'RestoreError';
}

/** The most one Storage file of a backup may hold (the most an upload may: MAX_BODY_BYTES). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_MANIFEST_BYTES = 1024 * 1024;

function isEmptyOrAbsent(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * Restores the backup `file` into `dataDir`, which must not hold anything yet: the database, the
 * Storage files (`<dataDir>/storage`, or `storageDir`, which must be empty too) and the marker of
 * a complete first start. The next start on `dataDir` applies the migrations made since the
 * backup. The file must be laid out as `makeBackup` writes it: the manifest first, then the
 * database, then Storage files of at most 10 MB each; anything else stops the restore at once,
 * and what it wrote is removed.
 */
export async function restoreBackup(
  file: string,
  dataDir: string,
  options: { storageDir?: string; log?: (line: string) => void } = {},
): Promise<BackupManifest> {
  const log = options.log ?? (() => {});
  if (!existsSync(file)) throw new RestoreError(`There is no backup file ${file}.`);
  const storageDir = options.storageDir ?? path.join(dataDir, 'storage');
  for (const dir of new Set([dataDir, storageDir])) {
    if (!isEmptyOrAbsent(dir)) {
      throw new RestoreError(`${dir} is not empty. Restore into a new data directory, then start the app on it.`);
    }
  }
  const blobs = createBlobStore(storageDir);
  const scratch = path.join(os.tmpdir(), `agent-marketplace-restore-${process.pid}-${Date.now()}`);
  mkdirSync(scratch, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  const notABackup = (why: string) => new RestoreError(`${file} is not a backup of this app (${why}).`);
  try {
    let manifest: BackupManifest | null = null;
    let database: string | null = null;
    let files = 0;
    const extract = tar.extract();
    const reading = pipeline(createReadStream(file), createGunzip(), extract);
    reading.catch(() => {}); // awaited below; the loop may fail first
    try {
      for await (const item of extract) {
        const { name, type, size = 0 } = item.header;
        if (type === 'directory') {
          item.resume();
          continue;
        }
        if (type !== 'file') throw notABackup(`${name} is not a file`);
        if (!manifest) {
          if (name !== MANIFEST || size > MAX_MANIFEST_BYTES) throw notABackup(`it does not start with ${MANIFEST}`);
          manifest = JSON.parse(Buffer.from(await collect(item)).toString('utf8')) as BackupManifest;
          if (manifest.format !== BACKUP_FORMAT) {
            throw new RestoreError(
              `${file} is a backup of format ${manifest.format}; this version reads ${BACKUP_FORMAT}.`,
            );
          }
        } else if (!database) {
          if (name !== DATABASE) throw notABackup(`${DATABASE} does not follow ${MANIFEST}`);
          database = path.join(scratch, DATABASE);
          // Streamed to disk: the database may be larger than the memory at hand.
          await pipeline(item, createWriteStream(database));
        } else {
          if (!name.startsWith(STORAGE) || size > MAX_FILE_BYTES) throw notABackup(`${name} is no Storage file`);
          const [bucket, ...key] = name.slice(STORAGE.length).split('/');
          // The blob store refuses a key that climbs out of its bucket (`..`).
          await blobs.put(bucket!, key.join('/'), await collect(item));
          files++;
        }
      }
      await reading;
    } catch (error) {
      if (error instanceof RestoreError) throw error;
      throw notABackup(String(error));
    }
    if (!manifest || !database) throw notABackup(`no ${MANIFEST} or ${DATABASE}`);
    const db = await openPGliteThread({
      dataPath: path.join(dataDir, 'pgdata'),
      snapshotFile: database,
      workerFile: ownFile('pglite-worker.js'),
      log,
    });
    try {
      await db.query('select 1 from supabase_migrations.schema_migrations limit 1');
    } finally {
      await db.close();
    }
    writeMarker(path.join(dataDir, INITIALISED_MARKER), {
      initialisedAt: new Date().toISOString(),
      restoredFrom: path.basename(file),
      backupCreatedAt: manifest.createdAt,
    });
    log(`Restored the database of ${manifest.createdAt} and ${files} Storage files into ${dataDir}`);
    return manifest;
  } catch (error) {
    // Both were empty or absent: nothing of anyone's is lost.
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(storageDir, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

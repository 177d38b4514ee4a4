/**
 * `npm run db:restore <backup file> <new data directory>`: restores a backup made on the Database
 * page (embedded backend on PGlite; ADR 067) into a data directory that does not exist yet or is
 * empty. Then start the app on it: `EMBEDDED_DATA_DIR=<dir> npm start` (or `npm run serve`). The
 * next start applies the migrations made since the backup; everyone signs in again. Without a
 * directory, EMBEDDED_DATA_DIR is used; STORAGE_DIR, when set, receives the Storage files.
 *
 * The backup format lives in packages/supabase-embedded/src/backup.ts, loaded through Vite's
 * module runner because it is TypeScript (as `npm run db:types` does).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const [file, dir = process.env.EMBEDDED_DATA_DIR] = process.argv.slice(2);
if (!file || !dir || dir === 'memory') {
  console.error('Usage: npm run db:restore <backup file> <new data directory>');
  process.exit(2);
}

const root = fileURLToPath(new URL('../', import.meta.url));
const { module } = await runnerImport(path.join(root, 'packages/supabase-embedded/src/backup.ts'), {
  configFile: false,
  logLevel: 'silent',
});
try {
  const manifest = await module.restoreBackup(path.resolve(file), path.resolve(dir), {
    storageDir: process.env.STORAGE_DIR ? path.resolve(process.env.STORAGE_DIR) : undefined,
    log: (line) => console.log(line),
  });
  console.log(
    `The backup of ${manifest.createdAt} (${manifest.migrations.length} migrations) is in ${dir}. ` +
      `Start the app on it: EMBEDDED_DATA_DIR=${dir} npm start`,
  );
} catch (error) {
  if (error?.name !== 'RestoreError') throw error;
  console.error(error.message);
  process.exit(1);
}

/**
 * A child process for the shutdown test of the query deadline (ADR 031): loads the embedded
 * backend (TypeScript, through Vite's module runner) on the data directory in argv[2], starts a
 * statement outside any request (no deadline) that would run for ten minutes, and prints BUSY. On
 * SIGTERM it prints SIGTERM, closes the backend and exits 0, as server.js does once its requests end.
 */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { module } = await runnerImport(`${root}packages/supabase-embedded/src/index.ts`, {
  configFile: false,
  logLevel: 'silent',
});
const backend = await module.createEmbeddedBackend({
  dataDir: process.argv[2],
  seed: false,
  log: () => {},
});
process.on('SIGTERM', async () => {
  console.log('SIGTERM');
  await backend.close();
  console.log('CLOSED');
  process.exit(0);
});
backend.db.query('select pg_sleep(600)').catch((error) => console.log(`ENDED ${error.code}`));
console.log('BUSY');

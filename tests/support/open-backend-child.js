/**
 * A child process for tests that need several real processes on one data directory: loads the
 * embedded backend (TypeScript, through Vite's module runner), prints READY, waits for a line
 * on stdin (the starting shot, so that every child races at the same instant), then calls
 * createEmbeddedBackend on the data directory in argv[2]. It prints OPENED and keeps the backend
 * (and its lock) until stdin closes, or prints FAILED <name>: <message> and exits 1.
 */
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { module } = await runnerImport(`${root}packages/supabase-embedded/src/index.ts`, {
  configFile: false,
  logLevel: 'silent',
});
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
console.log('READY');
await lines.next();
try {
  const backend = await module.createEmbeddedBackend({ dataDir: process.argv[2], seed: false });
  console.log('OPENED');
  await lines.next(); // stdin closed or a second line: stop
  await backend.close();
  process.exit(0);
} catch (error) {
  console.log(`FAILED ${error.name}: ${error.message}`);
  process.exit(1);
}

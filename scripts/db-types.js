/**
 * `npm run db:types`: regenerates `app/types/database.ts` from `supabase/migrations` (see
 * packages/supabase-embedded/scripts/gen-db-types.ts, loaded through Vite's module runner because it is TypeScript).
 * Run it after every migration change; its test beside it fails until you do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = fileURLToPath(new URL('../', import.meta.url));
const { module } = await runnerImport(path.join(root, 'packages/supabase-embedded/scripts/gen-db-types.ts'), {
  configFile: false,
  logLevel: 'silent',
});
const text = await module.generateDatabaseTypes(root);
const output = path.join(root, module.OUTPUT_FILE);
mkdirSync(path.dirname(output), { recursive: true });
writeFileSync(output, text);
console.log(`Wrote ${module.OUTPUT_FILE}`);

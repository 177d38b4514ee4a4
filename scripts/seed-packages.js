/**
 * `npm run db:seed-packages`: writes the demo agents' package files (supabase/demo-packages.ts)
 * into the private Storage bucket 'agent-packages' of a server seeded with supabase/seed.sql
 * (hosted Supabase or your own Postgres with Storage). Needs SUPABASE_URL and
 * SUPABASE_SERVICE_ROLE_KEY. Safe to run again: only files not written yet are written. The
 * embedded backend does this by itself in demo mode.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@supabase/supabase-js';
import { runnerImport } from 'vite';

const url = process.env.SUPABASE_URL;
const serviceRoleKey = process.env.SUPABASE_SERVICE_ROLE_KEY;
if (!url || !serviceRoleKey) {
  console.error(
    'SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY must be set (the seeded project and its service-role key).',
  );
  process.exit(1);
}

const root = fileURLToPath(new URL('../', import.meta.url));
const { module } = await runnerImport(path.join(root, 'supabase/demo-packages.ts'), {
  configFile: false,
  logLevel: 'silent',
});
/** Realtime is never used here (and Node 20 has no WebSocket for it). */
class NoRealtimeTransport {
  constructor() {
    throw new Error('Realtime is not used');
  }
}
const service = createClient(url, serviceRoleKey, {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  realtime: { transport: NoRealtimeTransport },
});
try {
  const written = await module.writeDemoPackages(service);
  console.log(written > 0 ? `Wrote ${written} demo package files.` : 'All demo package files were already written.');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

/**
 * Where this package's own run-time files are: the SQL it runs on a new database (bootstrap.sql,
 * the services' schema.sql) and the PGlite thread's script (pglite-worker.js). Found through the
 * package's link in the working directory's node_modules (npm workspaces make it), because the
 * app's server build bundles this code and keeps no `import.meta.url` of ours.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

let sourceDir: string | undefined;

/** The path of `relative` (e.g. `auth/schema.sql`) in the package's `src/` folder. */
export function ownFile(relative: string): string {
  sourceDir ??= path.join(
    path.dirname(
      createRequire(path.join(process.cwd(), 'package.json')).resolve('@agentmarket/supabase-embedded/package.json'),
    ),
    'src',
  );
  return path.join(sourceDir, relative);
}

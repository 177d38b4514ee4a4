import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { findPostgresBin } from './scripts/postgres-server.js';

const everything = [
  'app/**/*.test.ts',
  'supabase/**/*.test.ts',
  'packages/*/{src,scripts}/**/*.test.ts',
  'server/**/*.test.ts',
  'scripts/**/*.test.ts',
  'tests/contract/**/*.test.ts',
  'tests/security/**/*.test.ts',
];

/**
 * The database and contract suites run twice: on PGlite, as everywhere, and on a
 * throwaway PostgreSQL 15+ server (`postgres` project, tests/support/postgres-global-setup.ts).
 * CI installs the server (.ci/run); a machine without one skips that project, and says so.
 */
const onServer = [
  'supabase/tests/database/**/*.test.ts',
  'tests/contract/**/*.test.ts',
  'tests/security/{rls-matrix,tokens}.test.ts',
  'packages/supabase-embedded/src/server-database.test.ts',
];
const serverAvailable = findPostgresBin() !== null || process.env.CI === 'true';
if (!serverAvailable) {
  console.warn('No PostgreSQL 15+ server installed: the `postgres` test project is skipped (CI runs it).');
}

/**
 * Files that change `process.env` (the app started in-process reads its settings from it) run
 * each in a fresh module registry; every other file shares its worker's modules with the files
 * before it (`isolate: false`), which saves re-importing the app and the backend per file
 * (the `pglite` project: 457 → 353 s on two cores).
 */
const changesEnvironment = [
  // Every file that starts the app in-process (tests/support/app-in-process.ts sets its settings in
  // `process.env`; a shared registry would keep them, e.g. the raised rate limits, for later files).
  'tests/security/{agreed-prices-and-profiles,app-sweep,cart,database-admin,licenses-and-api,messages-pages,platform-settings,policies,public-origin,query-deadline,reports}.test.ts',
  'tests/contract/mail-and-dev-tools.test.ts',
];

/** One seeded database per run, copied by each test's new database (tests/support/seeded-template-setup.ts). */
const seededTemplate = 'tests/support/seeded-template-setup.ts';

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one fork per core but one: a single fork on 2 cores, idle while a test
    // waits (rate-limit windows, locks, network timeouts). Two forks there: 348 → 304 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // `gc()` for the tests that measure the memory a stream holds (tests/security/reports.test.ts).
    execArgv: ['--expose-gc'],
    projects: [
      {
        extends: true,
        test: {
          name: 'pglite',
          include: everything,
          exclude: [...configDefaults.exclude, ...changesEnvironment],
          isolate: false,
          globalSetup: [seededTemplate],
        },
      },
      {
        extends: true,
        // Side by side with the other projects (a project of one worker would run on its own, after
        // them, with the second core idle): the files that start Vite in-process take turns only
        // for the start (tests/support/app-in-process.ts). Vitest queues projects by name, so
        // `isolated` (the longest files) starts first and the many short files fill in around them.
        test: {
          name: 'isolated',
          include: changesEnvironment,
          globalSetup: [seededTemplate],
        },
      },
      ...(serverAvailable
        ? [
            {
              extends: true,
              test: {
                name: 'postgres',
                include: onServer,
                env: { DB_TARGET: 'postgres' },
                globalSetup: [seededTemplate, 'tests/support/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});

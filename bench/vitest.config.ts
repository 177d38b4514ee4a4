import { defineConfig } from 'vitest/config';

/** `npx vitest run -c bench/vitest.config.ts`: timing runs, kept out of the normal test run. */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['bench/**/*.bench.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});

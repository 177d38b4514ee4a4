/**
 * `npm run test:reliability`: the security suite with its full sizes (vitest: tests/security/,
 * 1,000 generated URL parameter sets, every redirect payload for both visitors, 50 simultaneous
 * purchases; and the data directory lock raced by ten processes), then the
 * slow end-to-end runs (tests/e2e/reliability/, through scripts/e2e.js: durability, first start,
 * oversized and malformed bodies), then the load run (scripts/load.js: autocannon -c 100 -d 60
 * against the production server), then one table: each row one number whose bar is zero. Exits
 * non-zero when a run failed or a number is above its bar.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runLoad } from './load.js';

const tallyDir = path.resolve('test-results/security');
rmSync(tallyDir, { recursive: true, force: true });
const env = { ...process.env, SECURITY_FULL: 'true', SECURITY_SWEEP_RUNS: '1000', SECURITY_TALLY_DIR: tallyDir };

const security = spawnSync(
  process.execPath,
  [
    '--import',
    './scripts/node20-polyfills.js',
    './node_modules/vitest/vitest.mjs',
    'run',
    'tests/security',
    'packages/supabase-embedded/src/lock.test.ts',
  ],
  { stdio: 'inherit', env },
);
const e2e = spawnSync(process.execPath, ['scripts/e2e.js'], {
  stdio: 'inherit',
  env: { ...process.env, E2E_SUITE: 'reliability' },
});

let loadFailed = false;
try {
  const { rows: loadRows } = await runLoad(path.resolve('.'));
  mkdirSync(tallyDir, { recursive: true });
  loadRows.forEach((row, index) => writeFileSync(path.join(tallyDir, `load-${index}.json`), JSON.stringify(row)));
} catch (error) {
  loadFailed = true;
  console.error('The load run failed:', error);
}

const rows = readdirSync(tallyDir, { withFileTypes: true })
  .filter((entry) => entry.name.endsWith('.json'))
  .map((entry) => JSON.parse(readFileSync(path.join(tallyDir, entry.name), 'utf8')))
  .sort((a, b) => a.check.localeCompare(b.check));

const width = Math.max(...rows.map((row) => row.check.length), 5);
console.log('\nReliability and security: each number counts failures, bar 0\n');
console.log(`${'Check'.padEnd(width)}  Number  Cases  What it counts`);
for (const row of rows) {
  const mark = row.value === 0 ? ' ' : '✗';
  console.log(
    `${row.check.padEnd(width)}  ${String(row.value).padStart(5)}${mark} ${String(row.cases).padStart(6)}  ${row.counts}`,
  );
  for (const example of row.examples) console.log(`${' '.repeat(width + 17)}e.g. ${example}`);
}
console.log(
  `\nSecurity suite ${security.status === 0 ? 'passed' : 'FAILED'}; end-to-end reliability runs ${e2e.status === 0 ? 'passed' : 'FAILED'}; load run ${loadFailed ? 'FAILED' : 'done'}.`,
);
process.exit(security.status === 0 && e2e.status === 0 && !loadFailed && rows.every((row) => row.value === 0) ? 0 : 1);

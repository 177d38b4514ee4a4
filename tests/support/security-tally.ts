/**
 * The security suite's numbers: each check records one count whose bar is zero (what it counts,
 * how many cases it tried, and the first examples) as a JSON file in test-results/security/.
 * `npm run test:reliability` (scripts/reliability.js) prints them as one table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const TALLY_DIR = process.env.SECURITY_TALLY_DIR ?? path.resolve('test-results/security');

export interface Tally {
  /** Short name of the check, the table's first column. */
  check: string;
  /** What the number counts (its bar is zero). */
  counts: string;
  /** Cases tried, so a zero cannot hide an empty loop. */
  cases: number;
  failures: string[];
}

export function recordTally({ check, counts, cases, failures }: Tally): void {
  mkdirSync(TALLY_DIR, { recursive: true });
  const file = path.join(TALLY_DIR, `${check.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.json`);
  writeFileSync(file, JSON.stringify({ check, counts, cases, value: failures.length, examples: failures.slice(0, 5) }));
}

/**
 * Start-up (ADR 004): the production server as `npm start` runs it (server.js, NODE_ENV=production,
 * demo mode), from spawn to the first 200 of the home page (polled every 10 ms). On a new data
 * directory the start applies the migrations and the demo data; on an existing one it opens it.
 * `rounds` of each; medians.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startServer } from './processes.js';
import { median } from './stats.js';

export async function measureStartup(root, tmp, { rounds = 3, log = () => {} } = {}) {
  const fresh = [];
  const existing = [];
  for (let round = 1; round <= rounds; round++) {
    const dataDir = mkdtempSync(path.join(tmp, 'startup-'));
    try {
      const first = await startServer({ cwd: root, dataDir, readyPath: '/', pollMs: 10 });
      await first.stop();
      const again = await startServer({ cwd: root, dataDir, readyPath: '/', pollMs: 10 });
      await again.stop();
      fresh.push(first.readyMs);
      existing.push(again.readyMs);
      log(
        `  round ${round}/${rounds}: new data directory ${first.readyMs.toFixed(0)} ms, existing ${again.readyMs.toFixed(0)} ms`,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return { newDataDirMs: median(fresh), existingDataDirMs: median(existing), rounds: { fresh, existing } };
}

/**
 * `npm run bench:cpu` (ADR 027): where the CPU goes when the benchmark's cache-miss marketplace
 * is served, embedded (one process over PGlite) and server-backed (WORKERS=2 over a PostgreSQL
 * server), against the bare fixture F. For each target, one autocannon run (-c 50) while every
 * process's CPU time is read from /proc: the app processes, the PostgreSQL server's processes,
 * and this process (autocannon). Prints requests per second and CPU milliseconds per request by
 * process group, and what that means for the ratio to F on a machine with more cores.
 *
 *   npm run bench:cpu -- [--agents N] [--duration S]
 * Linux only (/proc). Needs a PostgreSQL 15+ server installed for the server-backed rows.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuild } from './lib/build.js';
import { apiKey } from './lib/keys.js';
import { installCleanup, startServer } from './lib/processes.js';
import { seed } from './lib/seed.js';
import { serverBackedAvailable, startServerBacked } from './lib/server-backed.js';
import { load } from './lib/ssr.js';
import { uncachedMarketplacePath } from './lib/paths.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: { agents: { type: 'string', default: '10000' }, duration: { type: 'string', default: '10' } },
});
const duration = Number(options.duration);
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU milliseconds used so far by each process, by pid. */
function cpuByPid() {
  const times = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // utime and stime are fields 14 and 15 (1-based) of the line; 12 and 13 after the command.
      times.set(Number(entry), { command, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS });
    } catch {
      // The process ended meanwhile.
    }
  }
  return times;
}

/** The pids of `pid` and all its descendants. */
function family(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const all = new Set([pid]);
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      if (all.has(child)) continue;
      all.add(child);
      queue.push(child);
    }
  }
  return all;
}

/** One load run on `origin + nextPath()` with the CPU used by each group meanwhile. */
async function measure(name, origin, { nextPath, appPid, postgres = false }) {
  await load(origin, { connections: 50, duration: 3, nextPath }); // warm-up
  const before = cpuByPid();
  const result = await load(origin, { connections: 50, duration, nextPath });
  const after = cpuByPid();
  const app = family(appPid);
  const groups = { app: 0, postgres: 0, autocannon: 0, other: 0 };
  for (const [pid, { command, ms }] of after) {
    const used = ms - (before.get(pid)?.ms ?? 0);
    if (used <= 0) continue;
    if (app.has(pid)) groups.app += used;
    else if (pid === process.pid) groups.autocannon += used;
    else if (postgres && command === 'postgres') groups.postgres += used;
    else groups.other += used;
  }
  const perRequest = Object.fromEntries(Object.entries(groups).map(([group, ms]) => [group, ms / result.requests]));
  const busy = Object.values(groups).reduce((a, b) => a + b, 0) / (duration * 1000);
  return { name, rps: result.rps, p50: result.p50, p99: result.p99, bad: result.bad, perRequest, coresBusy: busy };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-'));
let embedded = null;
let serverBacked = null;
installCleanup(() => {
  embedded?.stop().catch(() => {});
  serverBacked?.stop().catch(() => {});
});
try {
  ensureBuild(root, { log: console.log });
  console.log(`Embedded server, seeding ${options.agents} agents`);
  embedded = await startServer({ cwd: root, dataDir });
  await seed(embedded.origin, await apiKey(dataDir, 'service_role'), Number(options.agents));
  await embedded.stop();
  embedded = await startServer({ cwd: root, dataDir }); // fresh statistics, as the bench does
  const rows = [];
  const fixture = () => '/__perf/fixture';
  rows.push(
    await measure('F /__perf/fixture (embedded)', embedded.origin, { nextPath: fixture, appPid: embedded.pid }),
  );
  rows.push(
    await measure('cache miss, embedded', embedded.origin, {
      nextPath: uncachedMarketplacePath(),
      appPid: embedded.pid,
    }),
  );
  await embedded.stop();
  embedded = null;
  if (serverBackedAvailable()) {
    console.log(`Server-backed: PostgreSQL server and WORKERS=2, seeding ${options.agents} agents`);
    serverBacked = await startServerBacked({ cwd: root, dataDir, agents: Number(options.agents) });
    rows.push(
      await measure('cache miss, server-backed ×2', serverBacked.origin, {
        nextPath: uncachedMarketplacePath(),
        appPid: serverBacked.pid,
        postgres: true,
      }),
    );
  }
  const f = rows[0];
  const fCost = f.perRequest.app;
  console.log(`\nCPU per request (ms) during ${duration} s of autocannon -c 50; ${os.cpus().length} cores`);
  console.log(
    'target                              req/s   p50   p99   app  postgres  autocannon  other  cores busy  ×F',
  );
  for (const row of rows) {
    const { app, postgres, autocannon, other } = row.perRequest;
    console.log(
      `${row.name.padEnd(34)} ${row.rps.toFixed(0).padStart(6)} ${row.p50.toFixed(0).padStart(5)} ${row.p99.toFixed(0).padStart(5)}` +
        ` ${app.toFixed(2).padStart(5)} ${postgres.toFixed(2).padStart(9)} ${autocannon.toFixed(2).padStart(11)} ${other.toFixed(2).padStart(6)}` +
        ` ${row.coresBusy.toFixed(2).padStart(11)} ${(row.rps / f.rps).toFixed(2).padStart(5)}`,
    );
  }
  const backed = rows.find((row) => row.name.includes('server-backed'));
  if (backed) {
    const server = backed.perRequest.app + backed.perRequest.postgres;
    console.log(
      `\nServer side per request: F ${fCost.toFixed(2)} ms (one process); server-backed ${server.toFixed(2)} ms ` +
        `(app ${backed.perRequest.app.toFixed(2)} + PostgreSQL ${backed.perRequest.postgres.toFixed(2)}).` +
        `\nWith the cores to run both app processes and PostgreSQL at once, F's ceiling is one core ` +
        `(${(1000 / fCost).toFixed(0)} req/s) and the server-backed page's is ` +
        `${(2000 / backed.perRequest.app).toFixed(0)} req/s on 2 app cores: ` +
        `×F ≈ ${(2 / backed.perRequest.app / (1 / fCost)).toFixed(2)} (PostgreSQL on its own cores).`,
    );
  }
} finally {
  await embedded?.stop().catch(() => {});
  await serverBacked?.stop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}

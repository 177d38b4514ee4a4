/**
 * `WORKERS=n` (ADR 021): the server as n processes sharing one port through Node's cluster
 * module, one per core with `WORKERS=auto`. The primary only supervises: it starts the workers
 * (each runs server.js as usual and validates the environment), stops them all when one fails to
 * start, replaces one that ends later, and passes SIGTERM/SIGINT on for a graceful stop.
 * Several processes need a database they can share: DATABASE_URL (a PostgreSQL server) or
 * SUPABASE_URL; the app's environment check refuses WORKERS above 1 on PGlite.
 */
import cluster from 'node:cluster';
import os from 'node:os';

/** The number of processes WORKERS asks for (an invalid value counts as 1: the app then reports it). */
export function workerCount(value = process.env.WORKERS) {
  const text = value?.trim();
  if (!text) return 1;
  if (text === 'auto') return os.availableParallelism();
  const count = Number(text);
  return Number.isInteger(count) && count >= 1 && count <= 256 ? count : 1;
}

/** The one process that prints the start-up banner and notices (all of them without a cluster). */
export const announces = !cluster.isWorker || cluster.worker?.id === 1;

/** In the primary of a multi-process server: starts and supervises the workers. Returns whether it did. */
export function superviseWorkers() {
  const count = workerCount();
  if (count <= 1 || !cluster.isPrimary) return false;
  console.log(`Starting ${count} app processes (WORKERS=${process.env.WORKERS})`);
  let listening = 0;
  let stopping = false;
  const live = () => Object.values(cluster.workers ?? {}).filter(Boolean);
  const stopAll = (signal) => {
    stopping = true;
    for (const worker of live()) worker.process.kill(signal);
    if (live().length === 0) process.exit(process.exitCode ?? 0);
  };
  cluster.on('listening', () => {
    listening += 1;
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (live().length === 0) process.exit(process.exitCode ?? 0);
    } else if (listening < count) {
      // A worker that ends before all are up met what would stop a single server (bad
      // environment, unreachable database): stop the others and exit with its code.
      process.exitCode = code || 1;
      stopAll('SIGTERM');
    } else {
      console.error(`App process ${worker.process.pid} ended (${signal ?? `code ${code}`}); starting another`);
      cluster.fork();
    }
  });
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => stopAll(signal));
  for (let index = 0; index < count; index += 1) cluster.fork();
  return true;
}

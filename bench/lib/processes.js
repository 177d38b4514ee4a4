/**
 * Child processes of the benchmark: the production server on a data directory, started with
 * its output in a log file, waited for on /healthz, stopped with SIGTERM (the backend closes
 * PGlite and releases its lock) and, whatever happens, killed when the benchmark exits.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../scripts/free-port.js';

const children = new Set();

function killAll() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
}

/** Kills every child on exit, on errors and on SIGINT/SIGTERM. Call once at start. */
export function installCleanup(onSignal = () => {}) {
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the benchmark`);
      onSignal();
      killAll();
      process.exit(130);
    });
  }
}

/**
 * `NODE_ENV=production node server.js` from `cwd` on `dataDir`, bound to 127.0.0.1.
 * Resolves once `readyPath` (/healthz) answers 200, with `{ origin, child, stop(), log(), readyMs }`.
 */
export async function startServer({
  cwd,
  dataDir,
  env = {},
  timeoutMs = 90_000,
  readyPath = '/healthz',
  pollMs = 200,
}) {
  const port = await freePort();
  return startProcess({
    cwd,
    // As `npm start` and `npm run serve` run it (package.json): V8's old generation capped at
    // 512 MB, about 3.5× the live heap under load (README, "Memory").
    args: ['--max-old-space-size=512', 'server.js'],
    logFile: path.join(dataDir, `server-${port}.log`),
    port,
    readyPath,
    pollMs,
    timeoutMs,
    env: {
      NODE_ENV: 'production',
      EMBEDDED_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      DEMO_MODE: 'true', // the benchmark signs in as, and seeds agents for, the demo accounts
      ENABLE_PERF_FIXTURE: 'true',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
      AUTH_FAILURES_BEFORE_DELAY: '100000',
      EMBEDDED_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
      EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
      // Licence checks and the seller API from one address and one key or token: their limits
      // still count in the database (their cost is measured), but never refuse.
      LICENSE_VERIFY_RATE_LIMIT_PER_IP: '100000000',
      LICENSE_VERIFY_RATE_LIMIT_PER_KEY: '100000000',
      API_RATE_LIMIT_PER_TOKEN: '100000000',
      ...env,
    },
  });
}

/**
 * `node <args>` from `cwd` with PORT=`port`, its output in `logFile`; resolves once `readyPath`
 * answers 200 (polled every `pollMs`), with the time from spawn to that answer as `readyMs`.
 */
export async function startProcess({ cwd, args, env, logFile, port, readyPath, pollMs = 200, timeoutMs = 90_000 }) {
  const out = openSync(logFile, 'a');
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    stdio: ['ignore', out, out],
    env: { ...process.env, PORT: String(port), ...env },
  });
  closeSync(out);
  children.add(child);
  let exited = null;
  const exitPromise = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      children.delete(child);
      resolve(exited);
    }),
  );
  const origin = `http://127.0.0.1:${port}`;
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`The server exited (${JSON.stringify(exited)}) before it was ready:\n${log()}`);
    try {
      const response = await fetch(`${origin}${readyPath}`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The server was not ready within ${timeoutMs} ms:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const readyMs = performance.now() - started;
  return {
    origin,
    child,
    pid: child.pid,
    log,
    readyMs,
    /** SIGTERM, then SIGKILL after `graceMs`. Resolves when the process is gone. */
    async stop(graceMs = 15_000) {
      if (exited) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exitPromise;
      clearTimeout(timer);
      return result;
    },
  };
}

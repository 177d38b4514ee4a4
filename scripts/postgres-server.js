/**
 * A throwaway PostgreSQL server for tests and the benchmark (ADR 021): `initdb` in a temporary
 * folder, started on a free loopback port with trust authentication, owned by the caller and
 * removed by `stop()`. Uses the newest installed server of version 15 or later (Debian's
 * `postgresql-15` puts it in /usr/lib/postgresql/15/bin; `PG_BIN` names another folder). As root,
 * the server runs as the `postgres` user, because PostgreSQL refuses to run as root.
 *
 *   const server = await startPostgresServer();   // { url, stop }
 *   const url = await createScratchDatabase(server.url);  // a new empty database on it
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';

/** @returns {string | null} the folder holding initdb and pg_ctl, or null when none is installed */
export function findPostgresBin() {
  if (process.env.PG_BIN) return existsSync(path.join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : null;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .map(Number)
        .filter((version) => version >= 15)
        .sort((a, b) => b - a)
    : [];
  for (const version of versions) {
    const bin = path.join(root, String(version), 'bin');
    if (existsSync(path.join(bin, 'initdb'))) return bin;
  }
  return null;
}

/**
 * @param {{ maxConnections?: number }} [options]
 * @returns {Promise<{ url: string, port: number, stop: () => void }>}
 */
export async function startPostgresServer(options = {}) {
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      'No PostgreSQL 15+ server is installed: apt-get install postgresql-15 (or set PG_BIN to the folder with initdb).',
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-marketplace-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(dir, 0o777);
    execFileSync('chown', ['postgres', dir]);
  }
  /** Runs a server program, as `postgres` when this process is root. */
  const run = (program, args) => {
    const [command, commandArgs] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]]
      : [path.join(bin, program), args];
    const result = spawnSync(command, commandArgs, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout || result.error}`);
  };
  const data = path.join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    `-c max_connections=${options.maxConnections ?? 200}`,
    // A throwaway cluster: durability is not what these runs measure.
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  run('pg_ctl', ['-D', data, '-o', settings, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop };
}

let scratchCount = 0;

/**
 * A new database on the server of `url`, a copy of `template` (each test file gets its own, so
 * that files can run in parallel); returns its URL. Roles are shared by the whole server.
 * @param {string} url
 * @param {string} [template]
 */
export async function createScratchDatabase(url, template = 'template1') {
  const name = `scratch_${process.pid}_${Date.now().toString(36)}_${scratchCount++}`;
  await runOn(url, `create database ${name} template ${pg.escapeIdentifier(template)}`);
  return databaseUrl(url, name);
}

/**
 * A database holding only `packages/supabase-embedded/src/bootstrap.sql` (roles, auth and storage schemas): the
 * template the tests copy. Creating the cluster-wide roles once, here, keeps test files that
 * start together from racing to create them.
 * @param {string} url
 * @param {string} bootstrapSql
 */
export async function createBootstrapTemplate(url, bootstrapSql, name = 'template_bootstrap') {
  await runOn(url, `create database ${name}`);
  await runOn(databaseUrl(url, name), bootstrapSql);
  return name;
}

/** @param {string} url @param {string} sql */
async function runOn(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** @param {string} url @param {string} name */
function databaseUrl(url, name) {
  const result = new URL(url);
  result.pathname = `/${name}`;
  return result.toString();
}

/**
 * Tests that need a server of their own (their own data directory or settings) start the
 * production build here: `node server.js` on a free loopback port, its output captured, and
 * every child killed by `killServers()` in the spec's afterAll.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { freePort } from '../../../scripts/free-port.js';

export interface ServerProcess {
  child: ChildProcess;
  origin: string;
  /** The embedded backend's anon key, from the `Anon key:` line (set once started). */
  anonKey: string;
  output: () => string;
  exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();

/** How the server is started: `node server.js` unless a spec runs another entry (`npm start`). */
const SERVER_COMMAND = [process.execPath, 'server.js'];

/**
 * Spawns the server on `dataDir` (a directory or `memory`) without waiting for it. `env` adds to
 * or overrides the defaults; an empty string unsets a default (e.g. `HOST: ''`).
 */
export async function spawnServer(
  dataDir: string,
  env: Record<string, string> = {},
  [command, ...args] = SERVER_COMMAND,
): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(command!, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: withoutEmpty({
      ...process.env,
      NODE_ENV: 'production',
      EMBEDDED_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: origin,
      DEMO_MODE: 'true', // the seeded demo accounts; a spec passes DEMO_MODE: 'false' for a deployment
      LICENSE_KEY_SECRET: 'e2e-licence-key-secret-0123456789abcdef', // what a deployment sets
      ...env,
    }),
  });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, origin, anonKey: '', output: () => output, exited };
}

/** Spawns the server and waits for /healthz and the `Anon key:` line. */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  command = SERVER_COMMAND,
): Promise<ServerProcess> {
  const server = await spawnServer(dataDir, env, command);
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}:\n${server.output()}`);
    const anonKey = /Anon key: (\S+)/.exec(server.output())?.[1];
    if (anonKey) {
      const healthy = await fetch(`${server.origin}/healthz`)
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) return { ...server, anonKey };
    }
    if (Date.now() > deadline) throw new Error(`server not ready in time:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Signs in through the server's Auth API as a client would; returns the HTTP status. */
export async function passwordSignIn(server: ServerProcess, email: string, password: string): Promise<number> {
  const response = await fetch(`${server.origin}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: server.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  await response.body?.cancel();
  return response.status;
}

export function killServers() {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1])));
}

const KEY_ISSUED_AT = 1_767_225_600; // as packages/supabase-embedded/src/keys.ts signs the API keys

/**
 * The service-role API key of a server on a data directory (not `memory`): signed with the
 * directory's `jwt-secret` as packages/supabase-embedded/src/keys.ts signs it, for reading what a test wrote.
 */
export function serviceRoleKey(dataDir: string): Promise<string> {
  const secret = readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
  return new SignJWT({ iss: 'supabase-demo', ref: 'local', role: 'service_role' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(KEY_ISSUED_AT)
    .setExpirationTime(KEY_ISSUED_AT + 10 * 365 * 24 * 3600)
    .sign(new TextEncoder().encode(secret));
}

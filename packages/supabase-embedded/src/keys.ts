/**
 * The embedded backend's signing secret and API keys. The secret is generated on first start
 * and kept in the data directory (0600); in memory mode a fresh one is made per process.
 * Keys are HS256 JWTs with the claims Supabase's legacy anon/service_role keys carry.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import type { Queryable } from './database';

export interface Keys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  sign(claims: JWTPayload, expiresInSeconds: number): Promise<string>;
  /** Verifies an HS256 token; throws on a bad signature, `alg` other than HS256, or expiry. */
  verify(token: string): Promise<JWTPayload>;
}

/** API keys are stable for a data directory: fixed issue time, ten years of validity. */
const KEY_ISSUED_AT = 1_767_225_600; // 2026-01-01T00:00:00Z
const KEY_EXPIRES_AT = KEY_ISSUED_AT + 10 * 365 * 24 * 3600;

/**
 * Where the secret lives: a data directory of PGlite (`dataDir`, or `null` for a fresh one per
 * process), or the database itself on the server mode, so that every process signs and checks
 * tokens with the same one.
 */
export type SecretHome = { dataDir: string | null } | { db: Queryable };

export async function loadKeys(home: SecretHome): Promise<Keys> {
  const jwtSecret = 'db' in home ? await readOrCreateSharedSecret(home.db) : readOrCreateSecret(home.dataDir);
  const key = new TextEncoder().encode(jwtSecret);
  const sign = hs256Signer(jwtSecret);
  const verify = async (token: string) => (await jwtVerify(token, key, { algorithms: ['HS256'] })).payload;
  const apiKey = (role: string) =>
    new SignJWT({ iss: 'supabase-demo', ref: 'local', role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(KEY_ISSUED_AT)
      .setExpirationTime(KEY_EXPIRES_AT)
      .sign(key);
  return {
    jwtSecret,
    anonKey: await apiKey('anon'),
    serviceRoleKey: await apiKey('service_role'),
    sign,
    verify,
  };
}

/**
 * Signs access tokens with an HS256 secret, as Auth does: the embedded backend's own, or a hosted
 * project's JWT secret (the app's seller API acts for a user with one, ADR 074).
 */
export function hs256Signer(secret: string) {
  const key = new TextEncoder().encode(secret);
  return (claims: JWTPayload, expiresInSeconds: number): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + expiresInSeconds)
      .sign(key);
  };
}

/** The first process to start on a new database picks the secret; the others read it. */
async function readOrCreateSharedSecret(db: Queryable): Promise<string> {
  await db.query(
    `insert into auth.local_secrets (name, value) values ('jwt_secret', $1) on conflict (name) do nothing`,
    [randomBytes(32).toString('base64url')],
  );
  const { rows } = await db.query<{ value: string }>(`select value from auth.local_secrets where name = 'jwt_secret'`);
  return rows[0]!.value;
}

function readOrCreateSecret(dataDir: string | null): string {
  if (!dataDir) return randomBytes(32).toString('base64url');
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

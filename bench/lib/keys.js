/**
 * The embedded backend's API keys, signed exactly as packages/supabase-embedded/src/keys.ts does: from
 * `<dataDir>/jwt-secret` on PGlite, or from the secret the server-backed mode keeps in the database.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';

const KEY_ISSUED_AT = 1_767_225_600; // 2026-01-01T00:00:00Z, as in keys.ts
const KEY_EXPIRES_AT = KEY_ISSUED_AT + 10 * 365 * 24 * 3600;

export function apiKey(dataDir, role) {
  return apiKeyFromSecret(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim(), role);
}

export function apiKeyFromSecret(secret, role) {
  return new SignJWT({ iss: 'supabase-demo', ref: 'local', role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(KEY_ISSUED_AT)
    .setExpirationTime(KEY_EXPIRES_AT)
    .sign(new TextEncoder().encode(secret));
}

/** The embedded backend's service_role key, signed from `<dataDir>/jwt-secret` exactly as supabase/local/keys.ts does. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';

const KEY_ISSUED_AT = 1_767_225_600; // 2026-01-01T00:00:00Z, as in keys.ts
const KEY_EXPIRES_AT = KEY_ISSUED_AT + 10 * 365 * 24 * 3600;

export function apiKey(dataDir, role) {
  const secret = readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
  return new SignJWT({ iss: 'supabase-demo', ref: 'local', role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(KEY_ISSUED_AT)
    .setExpirationTime(KEY_EXPIRES_AT)
    .sign(new TextEncoder().encode(secret));
}

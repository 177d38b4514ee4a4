/**
 * The caller of a Storage request: claims from the bearer JWT, or a storage-api style 400; a
 * user's token whose session Auth has ended is refused too (ADR 020).
 */
import type { Claims } from '../database';
import type { Keys } from '../keys';
import { SESSION_ENDED, type LiveSessions } from '../live-sessions';
import { jwtCacheFor } from '../rest/jwt-cache';
import { invalidJwt } from './errors';

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export async function storageClaims(request: Request, keys: Keys, sessions: LiveSessions): Promise<Claims> {
  const header = request.headers.get('authorization');
  if (!header) return { role: 'anon' };
  const token = /^bearer\s+(.*)$/i.exec(header.trim())?.[1]?.trim();
  if (!token) throw invalidJwt('jwt malformed');
  if (token.split('.').length !== 3) throw invalidJwt('jwt malformed');
  let payload: Record<string, unknown>;
  try {
    payload = (await jwtCacheFor(keys).verify(token)) as Record<string, unknown>;
  } catch (error) {
    const name = (error as { code?: string }).code;
    throw invalidJwt(name === 'ERR_JWT_EXPIRED' ? 'jwt expired' : 'invalid signature');
  }
  if (!(await sessions.accepts(payload))) throw invalidJwt(SESSION_ENDED);
  const role = payload.role ?? 'anon';
  if (typeof role !== 'string' || !API_ROLES.has(role)) throw invalidJwt(`role "${String(role)}" does not exist`);
  return { ...payload, role };
}

/** The uploader recorded as `owner`: the JWT subject when it is a UUID. */
export function ownerOf(claims: Claims): string | null {
  const sub = claims.sub;
  return typeof sub === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sub)
    ? sub
    : null;
}

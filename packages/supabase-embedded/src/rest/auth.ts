/**
 * The request's role and claims: the bearer JWT is verified with the project
 * secret; anything wrong with it is a 401, never a silent fall back to another role.
 * A user's token whose session Auth has ended is refused too (ADR 020; PostgREST would serve it
 * until it expires).
 */
import { errors as joseErrors } from 'jose';
import type { Claims } from '../database';
import type { Keys } from '../keys';
import { SESSION_ENDED, type LiveSessions } from '../live-sessions';
import { RestError } from './errors';
import { jwtCacheFor } from './jwt-cache';

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

function jwtError(code: 'PGRST301' | 'PGRST303', message: string): RestError {
  return new RestError(401, code, message, null, null, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${message}"`,
  });
}

export async function claimsFor(request: Request, keys: Keys, sessions: LiveSessions): Promise<Claims> {
  const header = request.headers.get('authorization');
  if (!header) return { role: 'anon' };
  const match = /^bearer\s+(.*)$/i.exec(header.trim());
  if (!match) throw jwtError('PGRST301', 'Authorization header is not a Bearer token');
  const token = match[1]!.trim();
  const parts = token.split('.');
  if (parts.length !== 3) throw jwtError('PGRST301', `Expected 3 parts in JWT; got ${parts.length}`);
  let payload: Record<string, unknown>;
  try {
    payload = (await jwtCacheFor(keys).verify(token)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw jwtError('PGRST303', 'JWT expired');
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      const message =
        error.claim === 'nbf'
          ? 'JWT not yet valid'
          : error.claim === 'iat'
            ? 'JWT issued at future'
            : 'JWT claim validation failed';
      throw jwtError('PGRST303', message);
    }
    if (error instanceof joseErrors.JOSEAlgNotAllowed) throw jwtError('PGRST301', 'No suitable key or wrong key type');
    throw jwtError('PGRST301', 'JWT cryptographic operation failed');
  }
  if (!(await sessions.accepts(payload))) throw jwtError('PGRST303', SESSION_ENDED);
  const role = payload.role === undefined ? 'anon' : payload.role;
  if (typeof role !== 'string' || !API_ROLES.has(role)) {
    throw new RestError(401, '22023', `role "${String(role)}" does not exist`, null, null, {
      'www-authenticate': 'Bearer',
    });
  }
  return { ...payload, role };
}

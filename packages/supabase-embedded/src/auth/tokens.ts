/**
 * Access tokens and the bearer middleware of `/user`, `/logout`,
 * `/factors` and the admin API.
 */
import { errors as joseErrors, type JWTPayload } from 'jose';
import { AuthError, forbidden } from './errors';
import { isUuid } from './http';
import type { AuthService } from './service';
import type { Json, UserRow } from './users';
import { getUser, isBanned } from './users';

export interface AmrEntry {
  method: string;
  timestamp: number;
}

export interface SessionClaims {
  sessionId: string;
  aal: string;
  amr: AmrEntry[];
}

export function signAccessToken(service: AuthService, user: UserRow, session: SessionClaims): Promise<string> {
  const claims: Json = {
    iss: service.authUrl(),
    sub: user.id,
    aud: user.aud || 'authenticated',
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal: session.aal,
    amr: session.amr,
    session_id: session.sessionId,
    is_anonymous: user.is_anonymous,
  };
  return service.keys.sign(claims, service.config.jwtExpiry);
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization') ?? '';
  const match = /^bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** Verifies the bearer JWT; 401 without one, 403 `bad_jwt` when it does not verify. */
export async function verifyBearer(service: AuthService, request: Request): Promise<JWTPayload> {
  const token = bearerToken(request);
  if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  try {
    return await service.keys.verify(token);
  } catch (error) {
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${describeJwtError(error)}`);
  }
}

function describeJwtError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'token has invalid claims: token is expired';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return 'token signature is invalid: signature is invalid';
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'token is unverifiable: signing method is invalid';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `token has invalid claims: ${error.message}`;
  return 'token is malformed: could not parse token';
}

export interface Authenticated {
  claims: JWTPayload;
  user: UserRow;
  /** The session of the token, or null for tokens without `session_id`. */
  sessionId: string | null;
  aal: string;
  /** How the session was started and raised, as stored with it (empty without a session). */
  amr: AmrEntry[];
}

/**
 * Methods that prove access to the mailbox: the session a recovery (or magic) link or an emailed
 * code started. As GoTrue's `Session.IsRecovery`, such a session may set a new password without
 * the old one.
 */
const RECOVERY_METHODS = new Set(['recovery', 'otp', 'magiclink']);

export const isRecoverySession = (amr: readonly AmrEntry[]) => amr.some((entry) => RECOVERY_METHODS.has(entry.method));

/** The middleware of the user endpoints: valid JWT, existing user and session, not banned. */
export async function authenticate(service: AuthService, request: Request): Promise<Authenticated> {
  const claims = await verifyBearer(service, request);
  if (typeof claims.sub !== 'string' || !claims.sub) throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!isUuid(claims.sub)) throw new AuthError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await getUser(service.db, claims.sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  let sessionId: string | null = null;
  let amr: AmrEntry[] = [];
  let aal = typeof claims.aal === 'string' ? claims.aal : 'aal1';
  if (claims.session_id !== undefined) {
    const id = typeof claims.session_id === 'string' && isUuid(claims.session_id) ? claims.session_id : null;
    const found = id
      ? (
          await service.db.query<{ aal: string; amr: AmrEntry[] | null }>(
            'select aal, amr from auth.sessions where id = $1 and user_id = $2',
            [id, user.id],
          )
        ).rows[0]
      : undefined;
    if (!found) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    sessionId = id;
    // The session's own level: it may have fallen back to aal1 since the token was signed.
    aal = found.aal;
    amr = Array.isArray(found.amr) ? found.amr : [];
  }
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
  return { claims, user, sessionId, aal, amr };
}

/** The admin middleware: a valid JWT whose role is `service_role` (or `supabase_admin`). */
export async function requireAdmin(service: AuthService, request: Request): Promise<void> {
  const claims = await verifyBearer(service, request);
  if (claims.role !== 'service_role' && claims.role !== 'supabase_admin')
    throw forbidden('not_admin', 'User not allowed');
}

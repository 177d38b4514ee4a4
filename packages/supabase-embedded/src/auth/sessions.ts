/**
 * Server-side sessions and refresh tokens: sign-in, token responses, rotation with reuse
 * detection and logout scopes.
 */
import { randomBytes } from 'node:crypto';
import { AuthError, OAuthError, badRequest } from './errors';
import type { AuthService } from './service';
import type { AmrEntry } from './tokens';
import { signAccessToken } from './tokens';
import { loadUserJson } from './user-json';
import type { Json, Queryable } from './users';
import { getUser, isBanned } from './users';

interface SessionRow {
  id: string;
  user_id: string;
  aal: string;
  amr: AmrEntry[];
}

interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  session_id: string;
  parent: string | null;
  revoked: boolean;
  updated_at: Date;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function newRefreshToken(): string {
  return [...randomBytes(24)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

const now = () => Math.floor(Date.now() / 1000);

async function insertRefreshToken(
  db: Queryable,
  userId: string,
  sessionId: string,
  parent: string | null,
): Promise<string> {
  const token = newRefreshToken();
  await db.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [
    token,
    userId,
    sessionId,
    parent,
  ]);
  return token;
}

/** Builds GoTrue's token response for a session and one of its refresh tokens. */
export async function tokenResponse(
  service: AuthService,
  sessionId: string,
  refreshToken: string,
  extra: Json = {},
): Promise<Json> {
  const session = (await service.db.query<SessionRow>('select * from auth.sessions where id = $1', [sessionId]))
    .rows[0];
  const user = session ? await getUser(service.db, session.user_id) : null;
  if (!session || !user) throw badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found');
  if (isBanned(user)) {
    // Banned while this grant ran: no token, and the session it made goes.
    await endSessions(service, 'id = $1', [sessionId]);
    throw userBanned();
  }
  service.sessions.issued(sessionId, user.id);
  const accessToken = await signAccessToken(service, user, { sessionId, aal: session.aal, amr: session.amr });
  const expiresIn = service.config.jwtExpiry;
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: expiresIn,
    expires_at: now() + expiresIn,
    refresh_token: refreshToken,
    user: await loadUserJson(service.db, user.id),
    ...extra,
  };
}

/** GoTrue's answer to a grant for a banned user. */
export const userBanned = () => badRequest('user_banned', 'User is banned');

/**
 * Starts a session (aal1, amr = the sign-in method) and answers with tokens. Every grant ends
 * here (password, an emailed code or link, PKCE, Google, sign-up), so a banned user gets no
 * session from any of them.
 */
export async function signIn(
  service: AuthService,
  userId: string,
  method: string,
  extra: Json = {},
  request?: Request,
): Promise<Json> {
  const user = await getUser(service.db, userId);
  if (!user) throw badRequest('user_not_found', 'User not found');
  if (isBanned(user)) throw userBanned();
  const sessionId = crypto.randomUUID();
  // As GoTrue, the session remembers the User-Agent that signed in (at most 512 characters).
  const userAgent = request?.headers.get('user-agent')?.slice(0, 512) ?? null;
  await service.db.query(
    `insert into auth.sessions (id, user_id, aal, amr, user_agent) values ($1, $2, 'aal1', $3, $4)`,
    [sessionId, userId, JSON.stringify([{ method, timestamp: now() }]), userAgent],
  );
  await service.db.query('update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1', [userId]);
  await service.db.query(`update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = $2`, [
    userId,
    method === 'oauth' ? String(extra.provider ?? '') : 'email',
  ]);
  const refreshToken = await insertRefreshToken(service.db, userId, sessionId, null);
  const { provider: _provider, ...rest } = extra;
  return tokenResponse(service, sessionId, refreshToken, rest);
}

/** Raises a session to aal2 after an MFA verification and issues a fresh refresh token. */
export async function upgradeSession(
  service: AuthService,
  sessionId: string,
  method: string,
  factorId: string,
): Promise<Json> {
  const session = (await service.db.query<SessionRow>('select * from auth.sessions where id = $1', [sessionId]))
    .rows[0];
  if (!session) throw badRequest('session_not_found', 'Session not found');
  const amr = [...session.amr.filter((entry) => entry.method !== method), { method, timestamp: now() }];
  await service.db.query(
    `update auth.sessions set aal = 'aal2', amr = $2, factor_id = $3, updated_at = now() where id = $1`,
    [sessionId, JSON.stringify(amr), factorId],
  );
  await service.db.query(
    'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked',
    [sessionId],
  );
  const refreshToken = await insertRefreshToken(service.db, session.user_id, sessionId, null);
  return tokenResponse(service, sessionId, refreshToken);
}

/** After an unenrolment: the sessions raised to aal2 by `factorId` are aal1 again (their next tokens say so). */
export async function downgradeSessionsOfFactor(db: Queryable, factorId: string): Promise<void> {
  await db.query(`update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where factor_id = $1`, [
    factorId,
  ]);
}

/**
 * `grant_type=refresh_token` with rotation and reuse detection, as GoTrue does it. The checks and
 * the rotation run in one transaction that locks the presented token's row, so concurrent
 * refreshes with one token, from this process or another on the same database, take turns:
 * exactly one rotates it, and the others find it used (and get its successor, as a client that
 * lost the answer would). A read-then-write without the lock could hand out two successors.
 */
export async function refreshGrant(service: AuthService, presented: string): Promise<Json> {
  if (!presented) throw new OAuthError('invalid_request', 'refresh_token required');
  const { config } = service;
  const outcome = await service.db.transaction(async (tx): Promise<{ sessionId: string; token?: string }> => {
    const token = (
      await tx.query<RefreshTokenRow>('select * from auth.refresh_tokens where token = $1 for update', [presented])
    ).rows[0];
    if (!token) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    const user = await getUser(tx, token.user_id);
    if (!user) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    if (isBanned(user)) throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
    const session = (await tx.query('select 1 from auth.sessions where id = $1', [token.session_id])).rows[0];
    if (!session) throw badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found');

    if (token.revoked) {
      const active = (
        await tx.query<RefreshTokenRow>(
          'select * from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1',
          [token.session_id],
        )
      ).rows[0];
      if (active && active.parent === token.token) {
        // The client lost the answer of its last refresh: hand the current token out again.
        await touchSession(tx, token.session_id);
        return { sessionId: token.session_id, token: active.token };
      }
      const reuseUntil = token.updated_at.getTime() + config.refreshTokenReuseInterval * 1000;
      if (Date.now() > reuseUntil) {
        if (!config.enableRefreshTokenRotation) throw alreadyUsed();
        await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1', [
          token.session_id,
        ]);
        return { sessionId: token.session_id }; // reused: the session ends once this commits
      }
    }
    if (!config.enableRefreshTokenRotation) {
      await touchSession(tx, token.session_id);
      return { sessionId: token.session_id, token: token.token };
    }
    await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [token.id]);
    const next = await insertRefreshToken(tx, token.user_id, token.session_id, token.token);
    await touchSession(tx, token.session_id);
    return { sessionId: token.session_id, token: next };
  });
  if (!outcome.token) {
    await endSessions(service, 'id = $1', [outcome.sessionId]);
    throw alreadyUsed();
  }
  return tokenResponse(service, outcome.sessionId, outcome.token);
}

const alreadyUsed = () => badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');

async function touchSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [sessionId]);
}

export type LogoutScope = 'global' | 'local' | 'others';

export async function logout(
  service: AuthService,
  userId: string,
  sessionId: string | null,
  scope: LogoutScope,
): Promise<void> {
  if (scope === 'global' || !sessionId) {
    if (scope !== 'others') await endSessions(service, 'user_id = $1', [userId]);
    return;
  }
  if (scope === 'local') await endSessions(service, 'id = $1', [sessionId]);
  else await endSessions(service, 'user_id = $1 and id <> $2', [userId, sessionId]);
}

/** After a password change: every other session of the user ends (GoTrue's LogoutAllExceptMe). */
export async function endOtherSessions(service: AuthService, userId: string, sessionId: string | null): Promise<void> {
  if (sessionId) await endSessions(service, 'user_id = $1 and id <> $2', [userId, sessionId]);
  else await endSessions(service, 'user_id = $1', [userId]);
}

/**
 * The one way Auth ends sessions: deletes the rows `where` selects (their refresh tokens go by
 * cascade) and tells the Data API and Storage at once, which then refuse the sessions' access
 * tokens (ADR 020). `db` is the service's database; never pass a transaction that may still
 * roll back (the news would be out already) — collect ids and call `service.sessions.end` after
 * the commit instead, as the user deletion does.
 */
export async function endSessions(service: AuthService, where: string, params: unknown[]): Promise<void> {
  const { rows } = await service.db.query<{ id: string }>(
    `delete from auth.sessions where ${where} returning id`,
    params,
  );
  service.sessions.end(
    rows.map((row) => row.id),
    service.config.jwtExpiry,
  );
}

export function assertNever(value: never): never {
  throw new AuthError(500, 'unexpected_failure', `unexpected ${String(value)}`);
}

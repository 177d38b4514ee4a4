/**
 * Which Auth sessions still exist, as the Data API and Storage see them (ADR 020). A user's
 * access token names its session (`session_id`); once Auth ends that session (sign-out, a
 * password change ending the others, a ban, the user's deletion, refresh-token reuse, a second
 * factor ending the aal1 sessions) the token is refused at once, not only when it expires.
 *
 * Cost per request: two Map look-ups. The embedded Auth runs in the same process and calls
 * `issued` / `ended`; a session ended by another process on the same database (the server-backed
 * mode) arrives as a `session` change (packages/supabase-embedded/src/changes.ts, ADR 022) and is
 * ended here the same way, at once. The database is asked only for a session this process has
 * not seen confirmed within the last `SESSION_RECHECK_SECONDS`: the bound should a notification
 * be lost (the listening connection dropped), when the session is refused at most that late.
 */
import type { Queryable } from './database';

/** A session not confirmed for this long is looked up in `auth.sessions` again. */
export const SESSION_RECHECK_SECONDS = 30;

/** The refusal's message on both services: GoTrue's words for the same case (`session_not_found`). */
export const SESSION_ENDED = 'Session from session_id claim in JWT does not exist';

/** Bound on remembered sessions; the oldest entries go first (a forgotten one is looked up). */
const MAX_ENTRIES = 20_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class LiveSessions {
  /** session id → its user and when the session was last known to exist (ms). */
  private readonly confirmed = new Map<string, { userId: string; at: number }>();
  /** session id → until when (ms) its tokens are refused without asking the database. */
  private readonly ended = new Map<string, number>();
  private readonly lookups = new Map<string, Promise<string | null>>();

  constructor(
    private readonly db: Queryable,
    private readonly recheckMs = SESSION_RECHECK_SECONDS * 1000,
  ) {}

  /** Auth issued a token for this session just now: it exists. */
  issued(sessionId: string, userId: string): void {
    if (this.ended.has(sessionId)) return;
    remember(this.confirmed, sessionId, { userId, at: Date.now() });
  }

  /**
   * Auth deleted these sessions: their access tokens are refused from now on. The entries are
   * kept for `tokenLifetimeSeconds` (the JWT expiry), after which every such token has expired.
   */
  end(sessionIds: Iterable<string>, tokenLifetimeSeconds: number): void {
    const until = Date.now() + tokenLifetimeSeconds * 1000;
    for (const id of sessionIds) {
      this.confirmed.delete(id);
      remember(this.ended, id, until);
    }
  }

  /**
   * Whether verified claims may be served: true for tokens without `session_id` (the API keys,
   * tokens minted by a trusted server); else whether the named session of `sub` still exists.
   */
  async accepts(claims: Record<string, unknown>): Promise<boolean> {
    const sessionId = claims.session_id;
    if (sessionId === undefined) return true;
    if (typeof sessionId !== 'string' || !UUID.test(sessionId)) return false;
    const now = Date.now();
    const endedUntil = this.ended.get(sessionId);
    if (endedUntil !== undefined) {
      if (endedUntil > now) return false;
      this.ended.delete(sessionId);
    }
    const known = this.confirmed.get(sessionId);
    if (known && now - known.at < this.recheckMs) return known.userId === claims.sub;
    const userId = await this.lookUp(sessionId);
    return userId !== null && userId === claims.sub;
  }

  /** One database look-up per session at a time; the answer is remembered either way. */
  private lookUp(sessionId: string): Promise<string | null> {
    let pending = this.lookups.get(sessionId);
    if (!pending) {
      pending = this.db
        // A banned user's session counts as ended (a ban also deletes the sessions: auth/schema.sql).
        .query<{ user_id: string }>(
          `select s.user_id from auth.sessions s join auth.users u on u.id = s.user_id
            where s.id = $1 and (u.banned_until is null or u.banned_until <= now())`,
          [sessionId],
        )
        .then(({ rows }) => {
          const userId = rows[0]?.user_id ?? null;
          // Ended while the query ran: the in-process news wins.
          if (this.ended.has(sessionId)) return null;
          if (userId) remember(this.confirmed, sessionId, { userId, at: Date.now() });
          else remember(this.ended, sessionId, Date.now() + this.recheckMs);
          return userId;
        })
        .finally(() => this.lookups.delete(sessionId));
      this.lookups.set(sessionId, pending);
    }
    return pending;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
}

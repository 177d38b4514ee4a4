/**
 * What processes on one database tell each other (ADR 022): committed changes that someone keeps
 * in memory, announced by database triggers with `pg_notify('app_changes', <JSON>)` — an Auth
 * session ended (packages/supabase-embedded/src/auth/schema.sql), a profile changed or went, something the
 * published catalogue shows changed (migration 20261129000100). Each backend listens once
 * (LISTEN on PGlite and on a server alike; on PGlite the only speaker is the process itself) and
 * hands each change to the subscribers of its topic: its own `LiveSessions`, and the app's caches
 * through `backend.onChange` (server/app.ts).
 */
import type { Database } from './database';

export const CHANGES_CHANNEL = 'app_changes';

export type Change =
  /** An Auth session no longer exists: its access tokens are refused from now on. */
  | { topic: 'session'; id: string; user_id: string }
  /** A profile row (role, ban, name, picture) changed, or the user was deleted. */
  | { topic: 'user'; id: string }
  /** Agents, their figures, categories, reviews or sellers changed. */
  | { topic: 'catalogue' };

export type ChangeTopic = Change['topic'];
export type ChangeHandler<T extends ChangeTopic> = (change: Extract<Change, { topic: T }>) => void;

export interface ChangeFeed {
  /** Calls `handler` with every change of `topic` committed from now on; returns the unsubscribe. */
  on<T extends ChangeTopic>(topic: T, handler: ChangeHandler<T>): () => void;
  /** Stops listening (UNLISTEN; on a server, the listening connection closes). */
  close(): Promise<void>;
}

const TOPICS: ReadonlySet<string> = new Set<ChangeTopic>(['session', 'user', 'catalogue']);

export async function listenForChanges(db: Database, log: (line: string) => void): Promise<ChangeFeed> {
  const handlers = new Map<ChangeTopic, Set<(change: Change) => void>>();
  const dispatch = (change: Change) => {
    for (const handler of handlers.get(change.topic) ?? []) {
      try {
        handler(change);
      } catch (error) {
        log(`A ${change.topic} change subscriber failed: ${String(error)}`);
      }
    }
  };
  const unlisten = await db.listen(
    CHANGES_CHANNEL,
    (payload) => {
      const change = parseChange(payload);
      if (!change) return log(`Ignored a notification on ${CHANGES_CHANNEL}: ${payload.slice(0, 200)}`);
      dispatch(change);
    },
    // Changes sent while the connection was lost are unknown: the catalogue is forgotten as if
    // it had changed; sessions and viewers fall back on their bounds (30 s look-up, 10 s TTL).
    () => dispatch({ topic: 'catalogue' }),
  );
  return {
    on(topic, handler) {
      const subscribers = handlers.get(topic) ?? new Set();
      handlers.set(topic, subscribers);
      const entry = handler as (change: Change) => void;
      subscribers.add(entry);
      return () => void subscribers.delete(entry);
    },
    close: () => unlisten(),
  };
}

function parseChange(payload: string): Change | null {
  try {
    const change = JSON.parse(payload) as { topic?: unknown; id?: unknown; user_id?: unknown };
    if (typeof change.topic !== 'string' || !TOPICS.has(change.topic)) return null;
    if (change.topic !== 'catalogue' && typeof change.id !== 'string') return null;
    if (change.topic === 'session' && typeof change.user_id !== 'string') return null;
    return change as Change;
  } catch {
    return null;
  }
}

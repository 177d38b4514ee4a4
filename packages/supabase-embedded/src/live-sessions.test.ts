/** The session check of the Data API and Storage (ADR 020), against a stand-in `auth.sessions`. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveSessions, SESSION_RECHECK_SECONDS } from './live-sessions';

const USER = '00000000-0000-4000-8000-0000000000aa';
const SESSION = '00000000-0000-4000-8000-0000000000bb';

/** `auth.sessions` as a Map (id → user id), counting the look-ups. */
function fakeDatabase(rows: Map<string, string>) {
  const db = {
    lookUps: 0,
    async query<T>(_sql: string, params?: unknown[]): Promise<{ rows: T[] }> {
      db.lookUps++;
      const userId = rows.get(String(params?.[0]));
      return { rows: (userId ? [{ user_id: userId }] : []) as T[] };
    },
  };
  return db;
}

afterEach(() => vi.useRealTimers());

describe('LiveSessions', () => {
  it('accepts tokens without a session (API keys) and refuses a malformed session_id', async () => {
    const sessions = new LiveSessions(fakeDatabase(new Map()) as never);
    expect(await sessions.accepts({ role: 'anon' })).toBe(true);
    expect(await sessions.accepts({ role: 'service_role' })).toBe(true);
    expect(await sessions.accepts({ sub: USER, session_id: 'not-a-uuid' })).toBe(false);
    expect(await sessions.accepts({ sub: USER, session_id: 42 })).toBe(false);
  });

  it('answers from memory for sessions Auth issued or ended, without asking the database', async () => {
    const db = fakeDatabase(new Map([[SESSION, USER]]));
    const sessions = new LiveSessions(db as never);
    sessions.issued(SESSION, USER);
    expect(await sessions.accepts({ sub: USER, session_id: SESSION })).toBe(true);
    // Another user's token naming this session is not this session's.
    expect(await sessions.accepts({ sub: '00000000-0000-4000-8000-0000000000cc', session_id: SESSION })).toBe(false);
    sessions.end([SESSION], 3600);
    expect(await sessions.accepts({ sub: USER, session_id: SESSION })).toBe(false);
    sessions.issued(SESSION, USER); // a late report cannot bring it back
    expect(await sessions.accepts({ sub: USER, session_id: SESSION })).toBe(false);
    expect(db.lookUps).toBe(0);
  });

  it('looks a session up once, then again after SESSION_RECHECK_SECONDS (ended by another process)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const rows = new Map([[SESSION, USER]]);
    const db = fakeDatabase(rows);
    const sessions = new LiveSessions(db as never);
    const claims = { sub: USER, session_id: SESSION };
    expect(await Promise.all([sessions.accepts(claims), sessions.accepts(claims)])).toEqual([true, true]);
    expect(db.lookUps).toBe(1);
    rows.delete(SESSION); // another process signs the session out
    vi.advanceTimersByTime((SESSION_RECHECK_SECONDS - 1) * 1000);
    expect(await sessions.accepts(claims)).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(await sessions.accepts(claims)).toBe(false);
    expect(await sessions.accepts(claims)).toBe(false);
    expect(db.lookUps).toBe(2);
  });

  it('forgets ended sessions once their tokens have expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const db = fakeDatabase(new Map());
    const sessions = new LiveSessions(db as never);
    sessions.end([SESSION], 60);
    expect(await sessions.accepts({ sub: USER, session_id: SESSION })).toBe(false);
    expect(db.lookUps).toBe(0);
    vi.advanceTimersByTime(61_000);
    // Past the expiry the memory is gone; a (forged-in-time) token would be looked up, still refused.
    expect(await sessions.accepts({ sub: USER, session_id: SESSION })).toBe(false);
    expect(db.lookUps).toBe(1);
  });
});

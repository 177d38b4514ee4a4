/**
 * State that several processes on one database share (ADR 022), through two embedded
 * backends on one PostgreSQL database (tests/support/two-backends.ts; on the `pglite` project the
 * two are one backend): a session ended through one is refused by the other at once, the Auth's
 * limits and per-account delay count attempts made through either, changes reach the other's
 * subscribers, and one refresh token presented to both at once is rotated once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change, ChangeTopic, EmbeddedBackend, RateLimitClock } from '@agentmarket/supabase-embedded';
import { jwtPayload } from '../support/auth-helpers';
import { isHostedTarget } from '../support/contract-target';
import { call, openTwoBackends, type TwoBackends } from '../support/two-backends';

const BUYER = { id: '00000000-0000-4000-8000-000000000001', email: 'buyer@demo.test', password: 'demo-password' };

/** The next change of `topic` that `backend` hears and `matches` accepts. */
function nextChange<T extends ChangeTopic>(
  backend: EmbeddedBackend,
  topic: T,
  matches: (change: Extract<Change, { topic: T }>) => boolean = () => true,
): Promise<Extract<Change, { topic: T }>> {
  return new Promise((resolve) => {
    const stop = backend.onChange(topic, (change) => {
      if (!matches(change)) return;
      stop();
      resolve(change);
    });
  });
}

async function signIn(backend: EmbeddedBackend) {
  const response = await call(backend, '/auth/v1/token?grant_type=password', {
    method: 'POST',
    body: { email: BUYER.email, password: BUYER.password },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token: string };
}

describe.skipIf(isHostedTarget)('state shared by the processes on one database', () => {
  const slept: number[] = [];
  const start = Date.now();
  // One clock for both backends, standing still: delays are recorded, not waited.
  const clock: RateLimitClock = { now: () => start, sleep: async (ms) => void slept.push(ms) };
  let backends: TwoBackends;

  beforeAll(async () => {
    backends = await openTwoBackends({
      clock,
      auth: { rateLimits: { signInSignUps: 10, accountFailuresBeforeDelay: 5 } },
    });
  });
  afterAll(() => backends?.close());

  it('refuses on one backend, at once, the tokens of a session ended through the other', async () => {
    const { a, b } = backends;
    const { access_token: token } = await signIn(a);
    const sessionId = jwtPayload(token).session_id as string;
    const readSettings = () => call(b, '/rest/v1/user_settings?select=user_id', { token, address: '203.0.113.20' });
    // B has looked the session up and now remembers it as live (ADR 020: for 30 s).
    const before = await readSettings();
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual([{ user_id: BUYER.id }]);

    const ended = nextChange(b, 'session', (change) => change.id === sessionId);
    expect((await call(a, '/auth/v1/logout?scope=local', { method: 'POST', token })).status).toBe(204);
    expect(await ended).toEqual({ topic: 'session', id: sessionId, user_id: BUYER.id });

    const after = await readSettings();
    expect(after.status).toBe(401);
    expect(((await after.json()) as { code: string }).code).toBe('PGRST303');
  });

  it('counts wrong sign-ins made through either backend against one limit and one account delay', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const backend = attempt % 2 === 0 ? backends.a : backends.b;
      const response = await call(backend, '/auth/v1/token?grant_type=password', {
        method: 'POST',
        body: { email: 'seller@demo.test', password: 'wrong-password' },
        address: '203.0.113.30',
      });
      statuses.push(response.status);
      if (response.status === 429) expect(response.headers.get('retry-after')).toBe('300');
      await response.body?.cancel();
    }
    // sign_in_sign_ups = 10 per 5 minutes and address: the eleventh is refused, whichever backend.
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    // Five failures on the account before a delay: the sixth to tenth attempts waited, doubling.
    expect(slept).toEqual([250, 500, 1000, 2000, 4000]);
  });

  it('tells the other backend’s subscribers of a changed profile and a changed catalogue', async () => {
    const { a, b } = backends;
    const user = nextChange(b, 'user', (change) => change.id === BUYER.id);
    const catalogue = nextChange(b, 'catalogue');
    await a.db.query(`update public.users set bio = 'Changed on the other process' where id = $1`, [BUYER.id]);
    expect(await user).toEqual({ topic: 'user', id: BUYER.id });
    expect(await catalogue).toEqual({ topic: 'catalogue' });

    const agentChanged = nextChange(b, 'catalogue');
    await a.db.query(`update public.agents set price = price where id = (select id from public.agents limit 1)`);
    expect(await agentChanged).toEqual({ topic: 'catalogue' });

    // A new version: the changelog visitors share on the agent page (ADR 028).
    const versionAdded = nextChange(b, 'catalogue');
    await a.db.query(
      `update public.agent_versions set release_notes = release_notes where id = (select id from public.agent_versions limit 1)`,
    );
    expect(await versionAdded).toEqual({ topic: 'catalogue' });
  });

  it('rotates a refresh token presented to both backends at once only once', async () => {
    const { a, b } = backends;
    const { access_token: token, refresh_token: refreshToken } = await signIn(b);
    const sessionId = jwtPayload(token).session_id as string;
    const refresh = (backend: EmbeddedBackend) =>
      call(backend, '/auth/v1/token?grant_type=refresh_token', {
        method: 'POST',
        body: { refresh_token: refreshToken },
        address: '203.0.113.40',
      });
    const answers = await Promise.all([refresh(a), refresh(b), refresh(a), refresh(b)]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as { refresh_token?: string }[];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    // Every caller got the one successor (a client that lost an answer gets it again); no fork.
    expect(new Set(bodies.map((body) => body.refresh_token)).size).toBe(1);
    const live = await a.db.query<{ token: string }>(
      'select token from auth.refresh_tokens where session_id = $1 and not revoked',
      [sessionId],
    );
    expect(live.rows.map((row) => row.token)).toEqual([bodies[0]!.refresh_token]);
  });
});

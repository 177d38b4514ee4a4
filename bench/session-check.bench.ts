/**
 * The cost of refusing ended sessions (ADR 020): a signed-in user's access token on a loop of
 * small Data API reads (`user_settings`, one row under RLS) and Storage reads (the user's avatar
 * download), in process (gateway → service, no HTTP). Prints median and p95 per request; run it
 * before and after a change to the token check and compare.
 *
 *   BENCH_ITERATIONS=2000 npx vitest run -c bench/vitest.config.ts bench/session-check.bench.ts
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmbeddedBackend, type EmbeddedBackend } from '@agentmarket/supabase-embedded';
import { LiveSessions, SESSION_RECHECK_SECONDS } from '../packages/supabase-embedded/src/live-sessions';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 1000);
const WARMUP = 100;
const BUYER = '00000000-0000-4000-8000-000000000001';

let backend: EmbeddedBackend;
let token: string;

beforeAll(async () => {
  backend = await createEmbeddedBackend({ dataDir: null, seed: true });
  const signIn = await backend.fetch(`${backend.siteUrl()}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'buyer@demo.test', password: 'demo-password' }),
  });
  token = ((await signIn.json()) as { access_token: string }).access_token;
  const upload = await backend.fetch(`${backend.siteUrl()}/storage/v1/object/avatars/${BUYER}/bench.png`, {
    method: 'POST',
    headers: {
      apikey: backend.anonKey,
      authorization: `Bearer ${backend.serviceRoleKey}`,
      'content-type': 'image/png',
    },
    body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
  });
  expect(upload.ok).toBe(true);
});
afterAll(() => backend?.close());

async function timeLoop(url: string): Promise<{ median: number; p95: number }> {
  const headers = { apikey: backend.anonKey, authorization: `Bearer ${token}` };
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const start = performance.now();
    const response = await backend.fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    if (i >= WARMUP) samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, p95: samples[Math.floor(samples.length * 0.95)]! };
}

it('authenticated Data API and Storage reads', async () => {
  const rows: Record<string, { median: string; p95: string }> = {};
  const cases = {
    'Data API user_settings (1 row)': `${backend.siteUrl()}/rest/v1/user_settings?select=user_id&user_id=eq.${BUYER}`,
    'Storage authenticated download': `${backend.siteUrl()}/storage/v1/object/authenticated/avatars/${BUYER}/bench.png`,
  };
  for (const [name, url] of Object.entries(cases)) {
    const { median, p95 } = await timeLoop(url);
    rows[name] = { median: `${median.toFixed(3)} ms`, p95: `${p95.toFixed(3)} ms` };
  }
  console.table(rows);
});

it('the session check alone: remembered session, and a database look-up', async () => {
  const { rows } = await backend.db.query<{ id: string }>('select id from auth.sessions where user_id = $1 limit 1', [
    BUYER,
  ]);
  const claims = { sub: BUYER, session_id: rows[0]!.id };
  const remembered = new LiveSessions(backend.db);
  await remembered.accepts(claims);
  const calls = 100_000;
  let start = performance.now();
  for (let i = 0; i < calls; i++) await remembered.accepts(claims);
  const perCall = ((performance.now() - start) * 1000) / calls;
  const lookUps = 1000;
  start = performance.now();
  for (let i = 0; i < lookUps; i++) await new LiveSessions(backend.db).accepts(claims);
  const perLookUp = (performance.now() - start) / lookUps;
  console.table({
    'remembered session (every request)': `${perCall.toFixed(3)} µs`,
    [`look-up in auth.sessions (once per session per ${SESSION_RECHECK_SECONDS} s)`]: `${perLookUp.toFixed(3)} ms`,
  });
});

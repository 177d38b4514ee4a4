/**
 * Data API overhead: 10,000 published agents in an in-memory backend; each marketplace query
 * shape through supabase-js → gateway → Data API (in process, no HTTP) against the same SQL
 * on PGlite directly, both as the superuser (no RLS) and as `anon` in a `withClaims` transaction
 * (same RLS as the API, so that ratio is the Data API layer's own cost). Prints medians, p95s
 * and the ratios of medians (target ≤ 1.5).
 *
 *   npx vitest run -c bench/vitest.config.ts
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withClaims } from '../packages/supabase-embedded/src/database';
import { createEmbeddedBackend, type EmbeddedBackend } from '@agentmarket/supabase-embedded';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = 30;
const COLUMNS = 'id, name, description, price, category, thumbnail_url, seller_username, avg_rating, review_count';

class NoRealtime {
  constructor() {
    throw new Error('realtime disabled');
  }
}

let backend: EmbeddedBackend;
let supabase: SupabaseClient;

beforeAll(async () => {
  backend = await createEmbeddedBackend({ dataDir: null, seed: true });
  supabase = createClient(backend.siteUrl(), backend.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { fetch: backend.fetch },
    realtime: { transport: NoRealtime as never },
  });
  await backend.db.exec(`
    insert into public.agents (name, description, price, category, seller_id, status, created_at)
    select 'Agent ' || i, 'Automates task number ' || i || (case when i % 7 = 0 then ' with data pipelines' else '' end),
      (i % 500) + 0.99,
      (select c.name from public.categories c order by c.position, c.name
       limit 1 offset i % (select count(*) from public.categories)),
      (select id from public.users order by id limit 1 offset (i % greatest(1, (select count(*) from public.users)::int))),
      'published', now() - make_interval(mins => i)
    from generate_series(1, 10000) i;
    analyze;`);
});
afterAll(() => backend?.close());

interface Shape {
  name: string;
  api: () => PromiseLike<{ error: unknown }>;
  sql: string;
  params: unknown[];
}

/** The published catalogue through the Data API, as the marketplace asks for it. */
const published = (options?: { count: 'exact' }) =>
  supabase.from('agents_with_stats').select(COLUMNS, options).eq('status', 'published');

const shapes = (): Shape[] => [
  {
    name: 'newest, page 1',
    api: () => published().order('created_at', { ascending: false }).order('id').range(0, 29),
    sql: `select ${COLUMNS} from public.agents_with_stats where status = $1 order by created_at desc, id limit 30`,
    params: ['published'],
  },
  {
    name: 'category + max price, by price, with count',
    api: () =>
      published({ count: 'exact' }).eq('category', 'Finance').lte('price', 200).order('price').order('id').range(0, 29),
    sql: `select ${COLUMNS}, count(*) over () as total from public.agents_with_stats
          where status = $1 and category = $2 and price <= $3 order by price, id limit 30`,
    params: ['published', 'Finance', 200],
  },
  {
    name: 'search name/description',
    api: () =>
      published()
        .or('name.ilike.*data*,description.ilike.*data*')
        .order('created_at', { ascending: false })
        .range(0, 29),
    sql: `select ${COLUMNS} from public.agents_with_stats where status = $1 and (name ilike $2 or description ilike $2)
          order by created_at desc limit 30`,
    params: ['published', '%data%'],
  },
  {
    name: 'deep page (offset 3000)',
    api: () => published().order('created_at', { ascending: false }).range(3000, 3029),
    sql: `select ${COLUMNS} from public.agents_with_stats where status = $1 order by created_at desc limit 30 offset 3000`,
    params: ['published'],
  },
  {
    name: 'point read by id',
    api: () => supabase.from('agents').select('*').eq('id', firstId).single(),
    sql: 'select * from public.agents where id = $1',
    params: [],
  },
];

let firstId = '';

/** Interleaved samples (api, sql, sql as anon, api …) so all see the same machine load. */
async function timeAll(runs: (() => PromiseLike<unknown>)[]): Promise<number[][]> {
  for (let i = 0; i < WARMUP; i++) for (const run of runs) await run();
  const samples = runs.map(() => [] as number[]);
  for (let i = 0; i < ITERATIONS; i++) {
    for (const [index, run] of runs.entries()) {
      const start = performance.now();
      await run();
      samples[index]!.push(performance.now() - start);
    }
  }
  return samples.map((list) => list.sort((a, b) => a - b));
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

it('Data API vs direct SQL on 10,000 agents', async () => {
  firstId = (await backend.db.query<{ id: string }>('select id from public.agents limit 1')).rows[0]!.id;
  const lines: string[] = [];
  for (const shape of shapes()) {
    const params = shape.params.length > 0 ? shape.params : [firstId];
    const check = await shape.api();
    expect(check.error).toBeNull();
    const [api, sql, anon] = await timeAll([
      () => shape.api(),
      () => backend.db.query(shape.sql, params),
      () => withClaims(backend.db, { role: 'anon' }, (tx) => tx.query(shape.sql, params)),
    ]);
    const median = (list: number[]) => quantile(list, 0.5);
    const p95 = (list: number[]) => quantile(list, 0.95);
    lines.push(
      `${shape.name.padEnd(44)} api ${median(api!).toFixed(2)} ms (p95 ${p95(api!).toFixed(2)}) | ` +
        `sql ${median(sql!).toFixed(2)} ms (p95 ${p95(sql!).toFixed(2)}) | ` +
        `sql as anon ${median(anon!).toFixed(2)} ms (p95 ${p95(anon!).toFixed(2)}) | ` +
        `api/sql ${(median(api!) / median(sql!)).toFixed(2)} | api/anon-sql ${(median(api!) / median(anon!)).toFixed(2)}`,
    );
  }
  console.log(`\n${lines.join('\n')}\n`);
});

/**
 * The marketplace's query shapes against agents_with_stats: first over HTTP through the Data
 * API (requests captured from supabase-js/postgrest-js, so URL and headers are exactly what the
 * app sends, then replayed with fetch), later as the same SQL the Data API builds, run directly
 * on PGlite opened on the same data directory (role anon + request.jwt.claims, as the API does).
 */
import path from 'node:path';
import { quantile } from './stats.js';

const COLUMNS = 'id, name, description, price, category, thumbnail_url, seller_username, avg_rating, review_count';
const PAGE = 24;

/** name, the supabase-js query (as app/server/marketplace.server.ts builds it), and the SQL. */
export const SHAPES = [
  {
    name: 'filter: Sales, price ≤ 200, rating ≥ 3, price-low',
    query: (q) => q.eq('category', 'Sales').lte('price', 200).gte('avg_rating', 3).order('price', { ascending: true }),
    where: 'category = $2 and price <= $3 and avg_rating >= $4',
    params: ['Sales', 200, 3],
    order: 'price asc',
  },
  {
    name: 'search "data" (ilike name/description/category)',
    query: (q) =>
      q
        .or('name.ilike.*data*,description.ilike.*data*,category.ilike.*data*')
        .order('created_at', { ascending: false }),
    where: '(name ilike $2 or description ilike $2 or category ilike $2)',
    params: ['%data%'],
    order: 'created_at desc',
  },
  ...[
    ['newest', 'created_at', false],
    ['popular', 'purchase_count', false],
    ['price-low', 'price', true],
    ['price-high', 'price', false],
    ['rating', 'avg_rating', false],
  ].map(([sort, column, ascending]) => ({
    name: `sort: ${sort}`,
    query: (q) => q.order(column, { ascending }),
    where: '',
    params: [],
    order: `${column} ${ascending ? 'asc' : 'desc'}`,
  })),
];

/** The statement packages/supabase-embedded/src/rest/read.ts builds for a GET with count=exact and a range. */
function sqlFor(shape) {
  const view = 'public.agents_with_stats';
  const where = ` where status = $1${shape.where ? ` and ${shape.where}` : ''}`;
  const inner = `select ${COLUMNS} from ${view}${where} order by ${shape.order}, id asc limit ${PAGE} offset 0`;
  return (
    `select count(*)::int as n, coalesce(json_agg(_pgrst_r), '[]')::text as body, ` +
    `(select count(*) from ${view}${where})::int as total from (${inner}) _pgrst_r`
  );
}

/** Builds each shape with supabase-js and records the request it would send. */
async function captureRequests(origin, anonKey) {
  let captured = null;
  const recorder = async (url, init) => {
    captured = { url: String(url), headers: Object.fromEntries(new Headers(init?.headers).entries()) };
    return new Response('[]', { status: 200, headers: { 'content-type': 'application/json', 'content-range': '*/0' } });
  };
  const warn = console.warn;
  console.warn = () => {}; // supabase-js's Node 20 deprecation notice
  const { createClient } = await import('@supabase/supabase-js');
  const supabase = createClient(origin, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { fetch: recorder },
    realtime: { transport: class {} },
  });
  console.warn = warn;
  const requests = [];
  for (const shape of SHAPES) {
    const base = supabase.from('agents_with_stats').select(COLUMNS, { count: 'exact' }).eq('status', 'published');
    await shape
      .query(base)
      .order('id', { ascending: true })
      .range(0, PAGE - 1);
    requests.push(captured);
  }
  return requests;
}

/** Round-robin over the shapes (so all see the same load): warm-up, then `iterations` timed requests each. */
export async function measureApi(origin, anonKey, { iterations, warmup }) {
  const requests = await captureRequests(origin, anonKey);
  const samples = SHAPES.map(() => []);
  const totals = [];
  for (let i = 0; i < warmup + iterations; i++) {
    for (let s = 0; s < requests.length; s++) {
      const started = performance.now();
      const response = await fetch(requests[s].url, { headers: requests[s].headers });
      const body = await response.text();
      const elapsed = performance.now() - started;
      if (response.status !== 200 && response.status !== 206)
        throw new Error(`${SHAPES[s].name}: HTTP ${response.status} ${body}`);
      if (i === 0) totals[s] = response.headers.get('content-range');
      if (i >= warmup) samples[s].push(elapsed);
    }
  }
  return { requests, totals, samples };
}

/** The same statements on PGlite directly, in a transaction as role anon (RLS applies). */
export async function measureSql(dataDir, { iterations, warmup }) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pgcrypto } = await import('@electric-sql/pglite/contrib/pgcrypto');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { uuid_ossp } = await import('@electric-sql/pglite/contrib/uuid_ossp');
  const opened = performance.now();
  const db = await PGlite.create({
    dataDir: path.join(dataDir, 'pgdata'),
    extensions: { pgcrypto, pg_trgm, uuid_ossp },
  });
  const openMs = performance.now() - opened;
  const claims = JSON.stringify({ iss: 'supabase-demo', ref: 'local', role: 'anon' });
  const statements = SHAPES.map((shape) => ({ sql: sqlFor(shape), params: ['published', ...shape.params] }));
  const samples = SHAPES.map(() => []);
  const totals = [];
  try {
    for (let i = 0; i < warmup + iterations; i++) {
      for (let s = 0; s < statements.length; s++) {
        const started = performance.now();
        const result = await db.transaction(async (tx) => {
          await tx.query(
            `select set_config('role', 'anon', true), set_config('request.jwt.claims', $1, true),
                    set_config('request.jwt.claim.sub', '', true), set_config('request.jwt.claim.role', 'anon', true),
                    set_config('search_path', 'public, extensions', true), set_config('transaction_read_only', 'on', true)`,
            [claims],
          );
          return tx.query(statements[s].sql, statements[s].params);
        });
        const elapsed = performance.now() - started;
        if (i === 0) totals[s] = `${result.rows[0].n}/${result.rows[0].total}`;
        if (i >= warmup) samples[s].push(elapsed);
      }
    }
  } finally {
    await db.close();
  }
  return { statements, totals, samples, openMs };
}

export function summarize(samples) {
  return { median: quantile(samples, 0.5), p95: quantile(samples, 0.95), n: samples.length };
}

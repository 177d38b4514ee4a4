/**
 * The load row of `npm run test:reliability`: the production server (`node server.js`,
 * NODE_ENV=production, demo data on a new data directory, the real rate limits) under
 * `autocannon -c 100 -d 60` over a mix of pages, filters, hostile inputs and failed sign-ins.
 * Bars: zero 5xx, errors and timeouts; resident memory grows at most 10 % between 30 s and 60 s;
 * peak at most 1 GiB. Failed sign-ins soon hit the rate limit: 429 is their expected answer.
 *
 *   node scripts/load.js [--connections 100] [--duration 60]   (run by scripts/reliability.js)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startServer as startBenchServer } from '../bench/lib/processes.js';

const RSS_GROWTH_BAR = 0.1;
const PEAK_BAR_BYTES = 1024 ** 3;
const agent = (n) => `/agent/a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Each entry: a request and the statuses it may answer (anything else is counted, a 5xx is a failure). */
function mix(origin) {
  const page = (requestPath, ok = [200]) => ({ request: { method: 'GET', path: requestPath }, ok });
  // A filter the marketplace writes another way answers 302 to its canonical URL.
  const filter = (requestPath) => page(requestPath, [200, 302]);
  const hostile = (requestPath) => page(requestPath, [200, 302, 400, 404]);
  const signIn = (email) => ({
    request: {
      method: 'POST',
      path: '/auth/sign-in',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: 'not-the-password', redirectTo: '/dashboard' }).toString(),
    },
    // A wrong password: the form again (400); past the limit: 429.
    ok: [400, 429],
  });
  return [
    page('/'),
    page('/marketplace'),
    filter('/marketplace?category=sales&sort=price-low'),
    filter('/marketplace?minRating=4&maxPrice=100&sort=rating'),
    filter('/marketplace?q=assistant&page=2'),
    page(agent(1)),
    page(agent(17)),
    page('/categories'),
    page('/help'),
    page('/pricing'),
    hostile('/marketplace?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E&sort=%27%20OR%201%3D1--'),
    hostile('/marketplace?maxPrice=NaN&minRating=1e309&page=-1'),
    hostile(`/marketplace?q=${'x'.repeat(2000)}`),
    hostile('/marketplace?category=..%2F..%2Fetc%2Fpasswd&sort[]=x'),
    hostile('/marketplace?q=%00'),
    hostile('/agent/not-a-uuid'),
    hostile('/sellers/%E0%A4%A'),
    hostile('/auth/sign-in?redirectTo=%2F%2Fevil.example'),
    signIn('buyer@demo.test'),
    signIn('nobody@example.com'),
  ];
}

function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/**
 * The production server with the benchmark's launcher, but with the real limits: the benchmark
 * raises them, and an empty value means "unset" (config.toml's and env.server.ts's defaults).
 */
function startServer(root, dataDir) {
  const realLimits = Object.fromEntries(
    [
      'AUTH_RATE_LIMIT_PER_IP',
      'AUTH_RATE_LIMIT_PER_EMAIL',
      'AUTH_FAILURES_BEFORE_DELAY',
      'EMBEDDED_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS',
      'EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH',
      'ENABLE_PERF_FIXTURE',
    ].map((name) => [name, '']),
  );
  return startBenchServer({ cwd: root, dataDir, env: realLimits, timeoutMs: 120_000 });
}

/**
 * Runs the load and returns the table rows ({ check, counts, cases, value, examples }) and the
 * figures. `root` is the repository (with a build).
 */
export async function runLoad(root, { connections = 100, duration = 60, log = console.log } = {}) {
  if (!existsSync(path.join(root, 'build/server/index.js'))) throw new Error('no build: run `npm run build` first');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'reliability-load-'));
  const server = await startServer(root, dataDir);
  try {
    const entries = mix(server.origin);
    // Warm-up: each request once, so the first seconds measure serving, not loading code.
    for (const { request } of entries) {
      const response = await fetch(server.origin + request.path, { ...request, redirect: 'manual' });
      await response.arrayBuffer();
    }
    log(`Load: autocannon -c ${connections} -d ${duration} over ${entries.length} requests against ${server.origin}`);
    const pid = server.child.pid;
    const samples = [];
    const sampler = setInterval(() => samples.push({ at: Date.now(), rss: rssBytes(pid) }), 1000);
    const started = Date.now();
    samples.push({ at: started, rss: rssBytes(pid) });
    const statuses = new Map();
    const unexpected = new Map();
    let next = 0;
    const result = await new Promise((resolve, reject) => {
      autocannon(
        {
          url: server.origin,
          connections,
          duration,
          timeout: 10,
          requests: [
            {
              setupRequest: (request, context) => {
                const entry = entries[next++ % entries.length];
                context.ok = entry.ok;
                context.path = entry.request.path;
                return { ...request, headers: {}, body: undefined, ...entry.request };
              },
              onResponse: (status, _body, context) => {
                statuses.set(status, (statuses.get(status) ?? 0) + 1);
                if (!context.ok.includes(status)) {
                  const key = `${status} ${context.path.slice(0, 80)}`;
                  unexpected.set(key, (unexpected.get(key) ?? 0) + 1);
                }
              },
            },
          ],
        },
        (error, done) => (error ? reject(error) : resolve(done)),
      );
    });
    clearInterval(sampler);
    samples.push({ at: Date.now(), rss: rssBytes(pid) });

    const at = (seconds) =>
      samples.reduce((best, sample) =>
        Math.abs(sample.at - started - seconds * 1000) < Math.abs(best.at - started - seconds * 1000) ? sample : best,
      );
    const half = at(duration / 2).rss;
    const end = at(duration).rss;
    const peak = Math.max(...samples.map((sample) => sample.rss));
    const growth = (end - half) / half;
    const fiveXx = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
    const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
    const figures = {
      requests: result.requests.total,
      rps: result.requests.average,
      p99ms: result.latency.p99,
      statuses: Object.fromEntries(statuses),
      errors: result.errors,
      timeouts: result.timeouts,
      rssAtHalf: half,
      rssAtEnd: end,
      rssPeak: peak,
    };
    log(
      `Load: ${figures.requests} requests (${figures.rps.toFixed(0)}/s, p99 ${figures.p99ms} ms), statuses ` +
        `${JSON.stringify(figures.statuses)}, errors ${figures.errors}, timeouts ${figures.timeouts}; RSS ` +
        `${mb(half)} at ${duration / 2} s, ${mb(end)} at ${duration} s, peak ${mb(peak)}`,
    );
    const rows = [
      {
        check: `Load: 5xx, errors, timeouts (-c ${connections} -d ${duration})`,
        counts: `5xx answers, connection errors and timeouts (${figures.timeouts}) over ${figures.requests} requests (${figures.rps.toFixed(0)}/s); 429 expected for failed sign-ins`,
        cases: figures.requests,
        value: fiveXx + figures.errors, // autocannon's errors include its timeouts
        examples: [...unexpected].slice(0, 5).map(([key, count]) => `${count} × ${key}`),
      },
      {
        check: 'Load: RSS growth 30 s → 60 s over 10 %',
        counts: `runs whose RSS grew by more than 10 % in the second half (${mb(half)} → ${mb(end)}, ${(growth * 100).toFixed(1)} %)`,
        cases: samples.length,
        value: growth > RSS_GROWTH_BAR ? 1 : 0,
        examples: growth > RSS_GROWTH_BAR ? [`grew by ${(growth * 100).toFixed(1)} %`] : [],
      },
      {
        check: 'Load: peak RSS over 1 GiB',
        counts: `runs whose RSS passed 1 GiB (peak ${mb(peak)})`,
        cases: samples.length,
        value: peak > PEAK_BAR_BYTES ? 1 : 0,
        examples: peak > PEAK_BAR_BYTES ? [`peak ${mb(peak)}`] : [],
      },
    ];
    // Requests with other statuses than expected (not failures by themselves unless 5xx): shown.
    if (unexpected.size) log(`Load: unexpected statuses: ${[...unexpected].map(([k, c]) => `${c} × ${k}`).join('; ')}`);
    return { rows, figures };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { connections: { type: 'string', default: '100' }, duration: { type: 'string', default: '60' } },
  });
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { rows } = await runLoad(root, { connections: Number(values.connections), duration: Number(values.duration) });
  for (const row of rows) console.log(`${row.check}: ${row.value} (${row.counts})`);
  process.exit(rows.every((row) => row.value === 0) ? 0 : 1);
}

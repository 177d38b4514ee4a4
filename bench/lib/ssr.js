/**
 * Server-rendered pages under load with autocannon (in process; the server is another
 * process): every response time is recorded, so p95 is exact rather than read off autocannon's
 * fixed percentiles. Targets are warmed up once, then measured in interleaved rounds.
 */
import autocannon from 'autocannon';
import { median, quantile } from './stats.js';

/**
 * `nextPath`, when given, names the path of each request in turn (e.g. to defeat caches);
 * `nextRequest` gives each request's path, method, headers and body (a form post). `ok` lists the
 * statuses that count as answered (default 200): `bad` counts every other.
 */
export function load(url, { connections = 50, duration = 10, headers = {}, nextPath, nextRequest, ok = [200] } = {}) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    let bad = 0;
    const next = nextRequest ?? (nextPath ? () => ({ path: nextPath() }) : null);
    const requests = next ? [{ setupRequest: (request) => ({ ...request, ...next() }) }] : undefined;
    const instance = autocannon({ url, connections, duration, headers, requests }, (error, result) => {
      if (error) return reject(error);
      resolve({
        rps: result.requests.average,
        requests: result.requests.total,
        p50: quantile(latencies, 0.5),
        p95: quantile(latencies, 0.95),
        p99: quantile(latencies, 0.99),
        non2xx: result.non2xx,
        bad,
        errors: result.errors,
        timeouts: result.timeouts,
      });
    });
    instance.on('response', (_client, status, _bytes, responseTime) => {
      latencies.push(responseTime);
      if (!ok.includes(status)) bad++;
    });
  });
}

/** What `load` needs of a target besides its URL. */
function options(target) {
  return { headers: target.headers, nextPath: target.nextPath, nextRequest: target.nextRequest, ok: target.ok };
}

let drains = 0;

/**
 * Lets the server finish the requests autocannon left in flight before the next run starts: on
 * this app, until a search nobody made before (it needs the database, so it waits behind whatever
 * is still queued there) answers within 250 ms, for at most 30 s; elsewhere (B-default) 0.5 s.
 */
async function drain(origin, app) {
  const started = Date.now();
  for (;;) {
    const path = app ? `/marketplace?q=drain${++drains}` : '/healthz';
    const sent = performance.now();
    await fetch(origin + path).then((response) => response.arrayBuffer());
    if (!app || performance.now() - sent < 250 || Date.now() - started > 30_000) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/** Warm-up of `warmup` s per target, then `rounds` rounds of `duration` s, targets interleaved. */
export async function measureTargets(origin, targets, { warmup, duration, rounds, connections, log = () => {} }) {
  for (const target of targets) {
    log(`  warm-up ${target.name} (${warmup} s)`);
    await load((target.origin ?? origin) + target.path, { ...options(target), connections, duration: warmup });
    await drain(target.origin ?? origin, !target.key?.startsWith('bDefault'));
  }
  const runs = Object.fromEntries(targets.map((target) => [target.name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      const result = await load((target.origin ?? origin) + target.path, { ...options(target), connections, duration });
      await drain(target.origin ?? origin, !target.key?.startsWith('bDefault'));
      log(
        `  round ${round}/${rounds} ${target.name.padEnd(26)} ${result.rps.toFixed(0).padStart(5)} req/s  ` +
          `p95 ${result.p95.toFixed(0)} ms  unexpected ${result.bad}  errors ${result.errors}`,
      );
      runs[target.name].push(result);
    }
  }
  return Object.fromEntries(
    targets.map((target) => {
      const list = runs[target.name];
      return [
        target.name,
        {
          path: target.path,
          signedIn: Boolean(target.headers?.cookie),
          rps: median(list.map((run) => run.rps)),
          p50: median(list.map((run) => run.p50)),
          p95: median(list.map((run) => run.p95)),
          p99: median(list.map((run) => run.p99)),
          non2xx: list.reduce((sum, run) => sum + run.bad, 0),
          errors: list.reduce((sum, run) => sum + run.errors + run.timeouts, 0),
          rounds: list,
        },
      ];
    }),
  );
}

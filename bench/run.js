/**
 * `npm run bench` (ADR 004): seeds 10,000 published agents into a fresh embedded backend on the
 * production build, then measures, in one run on this machine,
 *   0. start-up: spawn to the first 200 on a new and on an existing data directory,
 *   1. the JavaScript and HTML the pages ship (gzip -9) against the bare fixture F,
 *   2. server-rendered pages under load (autocannon -c 50) against F = /__perf/fixture, and F
 *      against B-default (the same cards in a default React Router app under react-router-serve,
 *      built in this run) and against that app with as many routes as ours (ADR 030); the
 *      collection, the purchase history and the buy action as ratios to F,
 *   3. the marketplace's queries through the Data API over HTTP against the same SQL on PGlite.
 *   4. with a PostgreSQL 15+ server installed: the same pages served by two processes over it
 *      (DATABASE_URL, WORKERS=2), in the same rounds, as ratios to the same F.
 * Prints a table with goals and PASS/MISS, writes bench/results/latest.json.
 *
 *   npm run bench                # 3 s warm-up, 3 rounds of 10 s
 *   npm run bench -- --quick     # 3 rounds of 3 s, fewer query iterations
 *   options: --agents N  --rounds N  --duration S  --build (force a build)  --keep (keep the data dir)
 *            --skip-startup (no start-up rows)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuild } from './lib/build.js';
import { measureApi, measureSql, SHAPES, summarize } from './lib/data-api.js';
import { appRouteCount, startBDefault } from './lib/b-default.js';
import { apiKey } from './lib/keys.js';
import { machine } from './lib/machine.js';
import { installCleanup, startServer } from './lib/processes.js';
import { printReport } from './lib/report.js';
import { agentId, seed } from './lib/seed.js';
import { serverBackedAvailable, startServerBacked } from './lib/server-backed.js';
import { signIn } from './lib/sign-in.js';
import { pageSizes } from './lib/sizes.js';
import { measureTargets } from './lib/ssr.js';
import { measureStartup } from './lib/startup.js';
import { suggestionPrefixes, uncachedMarketplacePath, uncachedSearchPath } from './lib/paths.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    agents: { type: 'string', default: '10000' },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    build: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'skip-startup': { type: 'boolean', default: false },
  },
});
const config = {
  agents: Number(options.agents),
  connections: 50,
  warmup: 3,
  rounds: Number(options.rounds ?? 3),
  duration: Number(options.duration ?? (options.quick ? 3 : 10)),
  queryIterations: options.quick ? 60 : 80,
  queryWarmup: options.quick ? 10 : 15,
};

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const log = (message) => console.log(`[${elapsed()}] ${message}`);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agent-bench-'));
let serverBacked = null;
const removeDataDir = () => {
  serverBacked?.stop().catch(() => {});
  if (!options.keep) rmSync(dataDir, { recursive: true, force: true });
};
installCleanup(removeDataDir);

/**
 * A new buyer (through the Auth API), signed in through the app: for the buy action under load,
 * every request buys another of the seeded agents (none of which this buyer owns). Its id and cookie.
 */
async function newBuyer(origin, anonKey) {
  const email = `bench-buyer-${Date.now()}@example.com`;
  const password = 'bench-buyer-password';
  const response = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, data: { username: `bench_buyer_${Date.now().toString(36)}` } }),
  });
  if (!response.ok)
    throw new Error(`Sign-up of the bench buyer failed: HTTP ${response.status} ${await response.text()}`);
  const body = await response.json();
  return { id: body.user?.id ?? body.id, cookie: await signIn(origin, email, password) };
}

/** Each load target answers 200 with its cards before it is measured. */
async function checkTarget(origin, target) {
  if (target.nextRequest) return; // a form post: each request is checked by its status under load
  const response = await fetch((target.origin ?? origin) + target.path, {
    headers: target.headers,
    redirect: 'manual',
  });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`${target.name}: GET ${target.path} → ${response.status}`);
  if (target.expect && !target.expect(html)) throw new Error(`${target.name}: unexpected page content`);
}

async function main() {
  const results = { date: new Date().toISOString(), machine: machine(), config };
  log(`Machine: ${results.machine.cpu}, ${results.machine.memoryGiB} GiB, Node ${results.machine.node}`);
  ensureBuild(root, { force: options.build, log });

  if (!options['skip-startup']) {
    log('Start-up: spawn to the first 200 of / on a new data directory (migrations, demo data) and on it again');
    results.startup = await measureStartup(root, dataDir, { rounds: options.quick ? 1 : 3, log });
  }

  log(`Starting the server on ${dataDir}`);
  let server = await startServer({ cwd: root, dataDir });
  log(`Server ready at ${server.origin}; seeding ${config.agents} agents`);
  const serviceKey = await apiKey(dataDir, 'service_role');
  const anonKey = await apiKey(dataDir, 'anon');
  const { prices, ...seeded } = await seed(server.origin, serviceKey, config.agents);
  results.seed = seeded;
  log(
    `Seeded ${results.seed.agents} agents, ${results.seed.purchases} purchases, ${results.seed.reviews} reviews ` +
      `in ${results.seed.seconds.toFixed(1)} s`,
  );

  // A restart refreshes the planner's statistics, as the running backend does every few minutes:
  // measure the steady state, not the moment right after a bulk load.
  log('Restarting the server on the seeded data directory');
  await server.stop();
  server = await startServer({ cwd: root, dataDir });

  const cookie = await signIn(server.origin);
  const { cookie: buyerCookie } = await newBuyer(server.origin, anonKey);
  log('A conversation of 1,000 messages between the new buyer and a seller');
  const conversationPath = await longConversation(server.origin, serviceKey, buyerCookie, agentId(1), 1000);
  log('A licence key of the demo buyer, and a seller API token with a draft to publish versions of');
  const license = await firstLicense(server.origin, cookie);
  const verified = await fetch(`${server.origin}/api/v1/licenses/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: license.agentId, license_key: license.key }),
  });
  if (!(await verified.text()).includes('"valid":true')) throw new Error('licence verify: the key did not verify');
  const seller = await sellerApi(server.origin);
  let uploads = 0;
  log('Building and starting B-default (bench/b-default/, react-router-serve)');
  const bDefault = await startBDefault(root, mkdtempSync(path.join(dataDir, 'b-default-')));
  // The same app with as many routes as ours (the root aside): what React Router's per-request
  // route work costs, apart from our layout and middleware (ADR 030).
  const appRoutes = appRouteCount(root) - 1;
  log(`Building and starting B-default with ${appRoutes} routes, as many as the marketplace`);
  const bDefaultRoutes = await startBDefault(root, mkdtempSync(path.join(dataDir, 'b-routes-')), {
    routes: appRoutes,
  });
  let bought = 0;
  const cards = (count) => (html) => (html.match(/<article\b/g) ?? []).length === count;
  const targets = [
    { name: 'F /__perf/fixture', key: 'fixture', path: '/__perf/fixture', expect: cards(24) },
    { name: 'marketplace', key: 'marketplace', path: '/marketplace', expect: cards(24) },
    {
      name: 'marketplace filtered',
      key: 'marketplaceFiltered',
      path: '/marketplace?category=sales&maxPrice=200&minRating=3&sort=price-low',
      expect: cards(24),
    },
    {
      name: 'marketplace signed in',
      key: 'marketplaceSignedIn',
      path: '/marketplace',
      headers: { cookie },
      expect: (html) => cards(24)(html) && html.includes('demo_buyer'),
    },
    {
      name: 'marketplace, cache miss',
      key: 'marketplaceMiss',
      path: '/marketplace?maxPrice=299',
      nextPath: uncachedMarketplacePath(),
      expect: cards(24),
    },
    {
      // A different two-word query each request (some with a typo): the search's own cost.
      name: 'marketplace, search, cache miss',
      key: 'marketplaceSearchMiss',
      path: '/marketplace?q=forecast+analyst',
      nextPath: uncachedSearchPath(),
      expect: (html) => html.includes('role="status"') && html.includes('Showing '),
    },
    { name: 'agent page', key: 'agent', path: `/agent/${agentId(1)}`, expect: (html) => html.includes('<h1') },
    {
      // The last fifty of 1,000 messages, as the buyer opens the conversation (it is read: no write).
      name: 'conversation, 1,000 messages',
      key: 'conversation',
      path: conversationPath,
      headers: { cookie: buyerCookie },
      expect: (html) => (html.match(/<article\b/g) ?? []).length === 50 && html.includes('Show earlier messages'),
    },
    { name: 'B-default (react-router-serve)', key: 'bDefault', origin: bDefault.origin, path: '/', expect: cards(24) },
    {
      name: `B-default with ${appRoutes} routes`,
      key: 'bDefaultRoutes',
      origin: bDefaultRoutes.origin,
      path: '/',
      expect: cards(24),
    },
    {
      name: 'collection signed in',
      key: 'collection',
      path: '/dashboard/collection',
      headers: { cookie },
      expect: (html) => html.includes('<article') || html.includes('<li'),
    },
    {
      name: 'purchase history signed in',
      key: 'purchases',
      path: '/dashboard/purchases',
      headers: { cookie },
      expect: (html) => html.includes('<table') || html.includes('<li'),
    },
    {
      // Each request buys another seeded agent (a new idempotency key each): Confirm purchase of
      // the order summary, 303 to the agent page.
      name: 'buy action (POST)',
      key: 'buy',
      path: `/agent/${agentId(1)}/checkout`,
      ok: [303],
      nextRequest: () => {
        const id = agentId((bought++ % config.agents) + 1);
        // A new buyer has no membership discount: the price shown is the list price.
        const price = prices.get(id).toFixed(2);
        return {
          method: 'POST',
          path: `/agent/${id}/checkout`,
          headers: {
            origin: server.origin,
            cookie: buyerCookie,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ intent: 'buy', idempotencyKey: crypto.randomUUID(), price }).toString(),
        };
      },
    },
    {
      // The public check of a licence key (no activation): two rate-limit windows, the licence.
      name: 'licence verify (POST)',
      key: 'licenseVerify',
      path: '/api/v1/licenses/verify',
      nextRequest: () => ({
        method: 'POST',
        path: '/api/v1/licenses/verify',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agent_id: license.agentId, license_key: license.key }),
      }),
    },
    {
      // Each request publishes the next version of the seller's draft (a 2 KB JSON package).
      name: 'API version upload (POST)',
      key: 'apiUpload',
      path: `/api/v1/agents/${seller.agentId}/versions`,
      ok: [201],
      nextRequest: () => versionUpload(seller, `1.0.${++uploads}`),
    },
  ];
  if (serverBackedAvailable()) {
    log(`Server-backed mode: PostgreSQL server, two app processes (WORKERS=2); seeding ${config.agents} agents`);
    serverBacked = await startServerBacked({ cwd: root, dataDir, agents: config.agents });
    const origin = serverBacked.origin;
    const serverCookie = await signIn(origin);
    targets.push(
      {
        name: 'server-backed ×2, cache miss',
        key: 'serverBackedMiss',
        origin,
        path: '/marketplace?maxPrice=299',
        nextPath: uncachedMarketplacePath(),
        expect: cards(24),
      },
      {
        name: 'server-backed ×2, signed in',
        key: 'serverBackedSignedIn',
        origin,
        path: '/marketplace',
        headers: { cookie: serverCookie },
        expect: (html) => cards(24)(html) && html.includes('demo_buyer'),
      },
    );
  } else {
    log('No PostgreSQL 15+ server installed: the server-backed rows are skipped (apt-get install postgresql-15)');
  }
  for (const target of targets) await checkTarget(target.origin ?? server.origin, target);

  log('Sizes: gzip -9 of the JavaScript each page loads, and of the HTML');
  results.sizes = {
    fixture: await pageSizes(server.origin, '/__perf/fixture'),
    home: await pageSizes(server.origin, '/'),
    marketplace: await pageSizes(server.origin, '/marketplace'),
  };

  log(
    `SSR under load: autocannon -c ${config.connections}, warm-up ${config.warmup} s, ` +
      `${config.rounds} interleaved rounds of ${config.duration} s`,
  );
  const ssr = await measureTargets(server.origin, targets, { ...config, log });
  results.ssr = Object.fromEntries(targets.map((target) => [target.key, { name: target.name, ...ssr[target.name] }]));
  if (serverBacked) {
    results.serverBacked = { workers: 2, seed: serverBacked.seeded };
    await serverBacked.stop();
    serverBacked = null;
  }
  results.ssr.buy.purchasesTried = bought;
  await bDefault.stop();
  await bDefaultRoutes.stop();

  log('Suggestions as you type: one user, one request at a time, each a different prefix');
  results.suggestions = await measureSuggestions(server.origin, { iterations: config.queryIterations });

  log('Cart checkout of three agents against three single purchases: one new buyer, one request at a time');
  results.cart = await measureCartCheckout(server.origin, {
    serviceKey,
    buyer: await newBuyer(server.origin, anonKey),
    prices,
    agents: config.agents,
    iterations: options.quick ? 10 : 30,
  });

  log(`Data API over HTTP: ${SHAPES.length} shapes × ${config.queryIterations} (after ${config.queryWarmup} warm-up)`);
  const api = await measureApi(server.origin, anonKey, {
    iterations: config.queryIterations,
    warmup: config.queryWarmup,
  });
  log('Stopping the server; the same SQL directly on PGlite on the same data directory');
  await server.stop();
  server = null;
  const sql = await measureSql(dataDir, { iterations: config.queryIterations, warmup: config.queryWarmup });
  results.dataApi = {
    pgliteOpenMs: sql.openMs,
    shapes: SHAPES.map((shape, index) => ({
      name: shape.name,
      request: api.requests[index].url.replace(/^https?:\/\/[^/]+/, ''),
      statement: sql.statements[index].sql,
      apiContentRange: api.totals[index],
      sqlRowsTotal: sql.totals[index],
      api: summarize(api.samples[index]),
      sql: summarize(sql.samples[index]),
    })),
  };

  results.durationSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  results.checks = printReport(results);
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  log(`Wrote bench/results/latest.json (${results.durationSeconds} s in all)`);
}

try {
  await main();
  removeDataDir();
} catch (error) {
  console.error(error);
  removeDataDir();
  process.exitCode = 1;
}
process.exit();

/**
 * A conversation of `count` messages: the buyer writes the first through the app (New message),
 * the rest are written through the Data API with the service role, alternately by both, a second
 * apart. Returns the conversation's path for the buyer.
 */
async function longConversation(origin, serviceKey, buyerCookie, agent, count) {
  const started = await fetch(`${origin}/dashboard/conversations/new`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, cookie: buyerCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ agentId: agent, body: 'Hello, a question about your agent.' }).toString(),
  });
  const location = started.headers.get('location');
  if (started.status !== 303 || !location) throw new Error(`New message: HTTP ${started.status}`);
  const path = new URL(location, origin).pathname;
  const id = path.split('/').at(-1);
  const headers = { apikey: serviceKey, authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' };
  const read = await fetch(`${origin}/rest/v1/conversations?id=eq.${id}&select=buyer_id,seller_id`, { headers });
  const [talk] = await read.json();
  const start = Date.now() - count * 1000;
  const rows = Array.from({ length: count - 1 }, (_, index) => ({
    conversation_id: id,
    sender_id: index % 2 ? talk.buyer_id : talk.seller_id,
    body: `Message ${index + 2}: ${'a few words of a real answer, '.repeat(3)}`,
    created_at: new Date(start + index * 1000).toISOString(),
  }));
  const written = await fetch(`${origin}/rest/v1/messages`, { method: 'POST', headers, body: JSON.stringify(rows) });
  if (!written.ok) throw new Error(`Messages: HTTP ${written.status} ${await written.text()}`);
  return path;
}

/**
 * The cart's checkout (POST /cart, three agents, one payment) against the single Buy (POST
 * /agent/:id/checkout) of one agent, both as one buyer, one request at a time: the cart's figure
 * is its median over three medians of the single Buy (below 1: cheaper than buying one by one).
 * Each cart is filled through the Data API (service role) before it is checked out.
 */
async function measureCartCheckout(origin, { serviceKey, buyer, prices, agents, iterations }) {
  const { id: buyerId, cookie: buyerCookie } = buyer;
  const form = (fields) => ({
    method: 'POST',
    redirect: 'manual',
    headers: { origin, cookie: buyerCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  const api = { apikey: serviceKey, authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' };
  if (!buyerId) throw new Error('cart checkout: the bench buyer has no id');
  // Agents from the top of the seeded range, apart from the load's purchases at the bottom.
  let next = agents;
  const take = () => agentId(next--);
  const single = [];
  const cart = [];
  for (let round = 0; round < iterations; round++) {
    const id = take();
    const started = performance.now();
    const bought = await fetch(
      `${origin}/agent/${id}/checkout`,
      form({ intent: 'buy', idempotencyKey: crypto.randomUUID(), price: prices.get(id).toFixed(2) }),
    );
    if (bought.status !== 303) throw new Error(`single buy: HTTP ${bought.status}`);
    single.push(performance.now() - started);

    const lines = [take(), take(), take()];
    const filled = await fetch(`${origin}/rest/v1/cart_items`, {
      method: 'POST',
      headers: api,
      body: JSON.stringify(lines.map((agent) => ({ user_id: buyerId, agent_id: agent }))),
    });
    if (!filled.ok) throw new Error(`cart: HTTP ${filled.status} ${await filled.text()}`);
    const totalCents = lines.reduce((sum, agent) => sum + Math.round(prices.get(agent) * 100), 0);
    const total = `${Math.floor(totalCents / 100)}.${String(totalCents % 100).padStart(2, '0')}`;
    const checkoutStarted = performance.now();
    const shown = lines.map((agent) => `${agent}:${Math.round(prices.get(agent) * 100)}`).join(',');
    const checkedOut = await fetch(
      `${origin}/cart`,
      form({ intent: 'checkout', idempotencyKey: crypto.randomUUID(), total, lines: shown }),
    );
    if (checkedOut.status !== 303) throw new Error(`cart checkout: HTTP ${checkedOut.status}`);
    cart.push(performance.now() - checkoutStarted);
  }
  return { single: summarize(single), cart: summarize(cart), lines: 3 };
}

/**
 * GET /search/suggestions as one user types: one request at a time, each a different prefix of
 * the seeded words (2 to 6 characters, so the shared read never answers from its cache).
 */
async function measureSuggestions(origin, { iterations }) {
  const prefixes = suggestionPrefixes();
  const samples = [];
  for (const [index, prefix] of prefixes.slice(0, Math.max(iterations, 20)).entries()) {
    const started = performance.now();
    const response = await fetch(`${origin}/search/suggestions?${new URLSearchParams({ q: prefix })}`);
    const body = await response.json();
    if (!response.ok || !Array.isArray(body.suggestions))
      throw new Error(`suggestions for ${prefix}: ${response.status}`);
    if (index >= 5) samples.push(performance.now() - started);
  }
  return summarize(samples);
}

/** The first licence key in the signed-in buyer's collection, and its agent. */
async function firstLicense(origin, cookie) {
  const html = await (await fetch(`${origin}/dashboard/collection`, { headers: { cookie } })).text();
  const card = html
    .split('<article')
    .slice(1)
    .find((part) => /([0-9A-F]{4}-){7}[0-9A-F]{4}/.test(part));
  const agentId = card?.match(/href="\/agent\/([0-9a-f-]{36})"/)?.[1];
  const key = card?.match(/([0-9A-F]{4}-){7}[0-9A-F]{4}/)?.[0];
  if (!agentId || !key) throw new Error('licence verify: no licence key in the demo buyer’s collection');
  return { agentId, key };
}

/** The demo seller's API token (made on the Developers page) and a new draft to publish versions of. */
async function sellerApi(origin) {
  const cookie = await signIn(origin, 'seller@demo.test');
  const form = new URLSearchParams({ intent: 'create', name: 'Bench', expires: '30' });
  form.append('scopes', 'listings:write');
  const page = await fetch(`${origin}/dashboard/developers`, {
    method: 'POST',
    headers: { origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const token = (await page.text()).match(/am_pat_[A-Za-z0-9_-]{43}/)?.[0];
  if (!token) throw new Error(`API upload: no token (HTTP ${page.status})`);
  const draft = await fetch(`${origin}/api/v1/agents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench Uploads',
      description: 'Versions from the benchmark.',
      category: 'Sales',
      price: 5,
    }),
  });
  if (draft.status !== 201) throw new Error(`API upload: the draft answered ${draft.status}`);
  const { id } = await draft.json();
  const seller = { token, agentId: id };
  const first = versionUpload(seller, '1.0.0');
  const answer = await fetch(`${origin}${first.path}`, first);
  if (answer.status !== 201) throw new Error(`API upload: the first version answered ${answer.status}`);
  return seller;
}

/** One multipart version upload as `curl -F` sends it. */
function versionUpload(seller, version) {
  const boundary = `----bench${crypto.randomUUID()}`;
  const manifest = JSON.stringify({
    $schema: '/schemas/agent-package/v1.json',
    name: 'Bench Uploads',
    version,
    category: 'Sales',
    description: 'Versions from the benchmark.',
    instructions: 'You are a benchmark agent.'.repeat(40),
    tools: [],
    examples: [],
    configuration: { model_family: 'any', temperature: 0.2, max_tokens: 800 },
    readme: '# Bench\n',
  });
  const part = (name, value, file) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: application/json` : ''}\r\n\r\n${value}\r\n`;
  const body = `${part('version', version)}${part('notes', `Version ${version}.`)}${part('package', manifest, 'agent.json')}--${boundary}--\r\n`;
  return {
    method: 'POST',
    path: `/api/v1/agents/${seller.agentId}/versions`,
    headers: { authorization: `Bearer ${seller.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  };
}

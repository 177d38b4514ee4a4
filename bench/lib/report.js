/** The stdout report: machine, every figure, every ratio with its goal and PASS/MISS. */

const GOALS = {
  ssr: {
    marketplace: 0.7,
    marketplaceFiltered: 0.7,
    marketplaceSignedIn: 0.5,
    agent: 0.7,
    serverBackedMiss: 0.7,
    marketplaceSearchMiss: 0.5,
    licenseVerify: 0.7,
  },
  /** Server-backed rows (ADR 021): the slowest 1 % within this many times the median. */
  serverBackedTail: 5,
  jsRatio: 1.2,
  /** Suggestions as you type, one user: the median answer. */
  suggestionsMs: 30,
  htmlGzipBytes: 30 * 1024,
  dataApiRatio: 1.5,
  /** F's requests per second over B-default's: our layout, middleware and headers cost nothing visible. */
  fOverBDefault: 1.0,
  startupExistingMs: 1000,
  startupNewMs: 5000,
};

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value) => `${value.toFixed(2)} ms`;

function table(headers, rows) {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) => cells.map((cell, column) => String(cell).padEnd(widths[column])).join('  ');
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

export function printReport(results) {
  const checks = [];
  const check = (name, value, display, goal, pass) => {
    checks.push({ name, value, goal, pass });
    return [display, goal, pass ? 'PASS' : 'MISS'];
  };
  const { machine, config } = results;
  const out = [];
  out.push('', '=== Benchmark ===');
  out.push(
    `Machine: ${machine.cpu}; ${machine.memoryGiB} GiB RAM (${machine.freeMemoryGiB} free); Node ${machine.node}; ` +
      `${machine.platform}; load average at start ${machine.loadAverage.join(' ')}`,
  );
  out.push(
    `Data: ${results.seed.agents} seeded + demo agents (published), ${results.seed.purchases} purchases, ` +
      `${results.seed.reviews} reviews. Ratios are within this run; absolute figures vary ±40% between runs.`,
  );

  const fixture = results.ssr.fixture;
  out.push(
    '',
    `--- SSR under load (autocannon -c ${config.connections}, ${config.rounds} interleaved rounds of ${config.duration} s after ${config.warmup} s warm-up; medians; p95 from every response time) ---`,
  );
  /** The ratio, goal and result cells of one load target. */
  const ssrVerdict = (key, run) => {
    if (key === 'fixture') return ['(baseline F)', '', ''];
    const ratio = run.rps / fixture.rps;
    const fOverB = fixture.rps / run.rps;
    if (key === 'bDefault') {
      return check(
        'ssr.fOverBDefault',
        fOverB,
        `F = ${fOverB.toFixed(2)}×B`,
        `F ≥ ${GOALS.fOverBDefault}×B`,
        fOverB >= GOALS.fOverBDefault && run.non2xx === 0,
      );
    }
    if (key === 'bDefaultRoutes') return [`F = ${fOverB.toFixed(2)}×B`, '(no goal: ADR 030)', ''];
    const goal = GOALS.ssr[key];
    if (goal === undefined) return [`${ratio.toFixed(2)}×F`, '(no goal)', ''];
    return check(
      `ssr.${key}.rpsRatio`,
      ratio,
      `${ratio.toFixed(2)}×F`,
      `≥ ${goal}×F`,
      ratio >= goal && run.non2xx === 0,
    );
  };
  const ssrRows = Object.entries(results.ssr).map(([key, run]) => {
    const verdict = ssrVerdict(key, run);
    return [
      run.name + (run.signedIn ? ' (cookie)' : ''),
      run.rps.toFixed(0),
      run.p50.toFixed(0),
      run.p95.toFixed(0),
      run.p99.toFixed(0),
      `${run.non2xx}/${run.errors}`,
      ...verdict,
    ];
  });
  out.push(
    table(['page', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'unexpected/err', 'ratio', 'goal', 'result'], ssrRows),
  );
  if (results.ssr.buy) {
    out.push(
      `(buy action: each request buys another seeded agent as a new buyer, 303 expected; ${results.ssr.buy.purchasesTried} tried)`,
    );
  }

  if (results.startup) {
    const { newDataDirMs, existingDataDirMs, rounds } = results.startup;
    out.push(
      '',
      `--- Start-up: spawn of the production server to the first 200 of / (median of ${rounds.fresh.length}) ---`,
    );
    out.push(
      table(
        ['data directory', 'ms', 'goal', 'result'],
        [
          [
            'new (migrations + demo data)',
            newDataDirMs.toFixed(0),
            ...check(
              'startup.newMs',
              newDataDirMs,
              '',
              `≤ ${GOALS.startupNewMs} ms`,
              newDataDirMs <= GOALS.startupNewMs,
            ).slice(1),
          ],
          [
            'existing',
            existingDataDirMs.toFixed(0),
            ...check(
              'startup.existingMs',
              existingDataDirMs,
              '',
              `≤ ${GOALS.startupExistingMs} ms`,
              existingDataDirMs <= GOALS.startupExistingMs,
            ).slice(1),
          ],
        ],
      ),
    );
  }
  const tails = Object.entries(results.ssr)
    .filter(([key]) => key.startsWith('serverBacked'))
    .map(([key, run]) => {
      const tail = run.p99 / run.p50;
      const goal = GOALS.serverBackedTail;
      return [
        run.name,
        ...check(`ssr.${key}.p99OverP50`, tail, `${tail.toFixed(1)}×p50`, `≤ ${goal}×p50`, tail <= goal),
      ];
    });
  if (tails.length > 0) {
    out.push('', '--- Server-backed mode (DATABASE_URL, WORKERS=2): the slowest 1 % against the median ---');
    out.push(table(['page', 'p99', 'goal', 'result'], tails));
  } else {
    out.push('', '(Server-backed rows skipped: no PostgreSQL 15+ server installed.)');
  }

  if (results.cart) {
    const { single, cart, lines } = results.cart;
    const ratio = cart.median / (lines * single.median);
    out.push(
      '',
      `--- Cart checkout (POST /cart, ${lines} agents, one payment) against ${lines} single purchases (POST /agent/:id/checkout), one buyer, ${cart.n} each ---`,
      table(
        ['what', 'p50 ms', 'p95 ms', 'ratio', 'result'],
        [
          ['single Buy (baseline)', ms(single.median), ms(single.p95), '', ''],
          ['cart checkout', ms(cart.median), ms(cart.p95), `${ratio.toFixed(2)}× ${lines} Buys`, '(no goal)'],
        ],
      ),
    );
  }
  if (results.suggestions) {
    const { median, p95, n } = results.suggestions;
    out.push('', `--- Suggestions as you type (GET /search/suggestions, one user, ${n} prefixes) ---`);
    out.push(
      table(
        ['what', 'p50 ms', 'p95 ms', 'goal', 'result'],
        [
          [
            'suggestions',
            ms(median),
            ms(p95),
            ...check(
              'suggestions.median',
              median,
              `${median.toFixed(1)} ms`,
              `≤ ${GOALS.suggestionsMs} ms`,
              median <= GOALS.suggestionsMs,
            ).slice(1),
          ],
        ],
      ),
    );
  }

  out.push('', '--- Sizes (gzip -9; JS = every <script src>, modulepreload and inline import of the page) ---');
  const { fixture: fixtureSize, home, marketplace } = results.sizes;
  const sizeRows = [
    ['F /__perf/fixture JS', kb(fixtureSize.jsGzip), `${fixtureSize.scripts.length} files`, '(baseline F)', '', ''],
  ];
  for (const [key, page] of [
    ['home', home],
    ['marketplace', marketplace],
  ]) {
    const ratio = page.jsGzip / fixtureSize.jsGzip;
    sizeRows.push([
      `${page.path} JS`,
      kb(page.jsGzip),
      `${page.scripts.length} files`,
      ...check(`size.${key}.jsRatio`, ratio, `${ratio.toFixed(2)}×F`, `≤ ${GOALS.jsRatio}×F`, ratio <= GOALS.jsRatio),
    ]);
  }
  sizeRows.push([
    '/marketplace HTML',
    kb(marketplace.htmlGzip),
    `raw ${kb(marketplace.htmlRaw)}`,
    ...check(
      'size.marketplace.htmlGzip',
      marketplace.htmlGzip,
      kb(marketplace.htmlGzip),
      `≤ ${kb(GOALS.htmlGzipBytes)}`,
      marketplace.htmlGzip <= GOALS.htmlGzipBytes,
    ),
  ]);
  out.push(table(['what', 'gzip', 'detail', 'value', 'goal', 'result'], sizeRows));

  out.push(
    '',
    `--- Data API (HTTP, anon key, count=exact, 24 rows) vs the same SQL on PGlite (role anon), ${config.queryIterations} samples each ---`,
  );
  const apiRows = results.dataApi.shapes.map((shape) => {
    const ratio = shape.api.median / shape.sql.median;
    return [
      shape.name,
      shape.apiContentRange ?? '',
      ms(shape.api.median),
      ms(shape.api.p95),
      ms(shape.sql.median),
      ms(shape.sql.p95),
      (shape.api.p95 / shape.sql.p95).toFixed(2),
      ...check(
        `dataApi.${shape.name}`,
        ratio,
        ratio.toFixed(2),
        `≤ ${GOALS.dataApiRatio}`,
        ratio <= GOALS.dataApiRatio,
      ),
    ];
  });
  out.push(
    table(
      [
        'shape',
        'content-range',
        'api p50',
        'api p95',
        'sql p50',
        'sql p95',
        'p95 ratio',
        'p50 ratio',
        'goal',
        'result',
      ],
      apiRows,
    ),
  );

  const missed = checks.filter((item) => !item.pass);
  out.push(
    '',
    `${checks.length - missed.length}/${checks.length} goals met${missed.length ? `; missed: ${missed.map((item) => item.name).join(', ')}` : ''}`,
  );
  console.log(out.join('\n'));
  return checks;
}

/**
 * Reports on the whole app (real request handler, the embedded backend in memory with the demo
 * data; ADR 068): only an admin generates them, through the page, the CSV and /rest/v1; the page
 * and the file hold what the database holds, a page at a time and whole; a wrong query is a 400
 * with what to fix; every report is audited; a CSV of 100,000 purchases starts at once and
 * streams without the server holding it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_MESSAGES } from '~/lib/reports';
import { signInThroughApp, startAppInProcess, type AppInProcess } from '../support/app-in-process';
import { anonClient } from '../support/clients';
import type { ContractTarget } from '../support/contract-target';

let app: AppInProcess;
let adminCookie: string;

beforeAll(async () => {
  app = await startAppInProcess();
  adminCookie = await signInThroughApp(app.origin, 'admin@demo.test');
}, 120_000);
afterAll(() => app?.close());

async function sql<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
  return (await app.backend.db.query<Row>(text, params)).rows;
}

const get = (path: string, cookie: string | null = adminCookie) =>
  fetch(app.origin + path, { redirect: 'manual', headers: cookie ? { cookie } : {} });

/** The page's text without React's separators between the parts of a text. */
const pageText = async (response: Response) => (await response.text()).replaceAll('<!-- -->', '');

const auditCount = async () =>
  (await sql<{ n: number }>(`select count(*)::int as n from public.audit_log where action = 'report.generated'`))[0]!.n;

/** Every day of the demo data (its times are relative to now). */
const YEAR = `from=2020-01-01&to=${new Date().getUTCFullYear() + 1}-12-31`;

describe('who generates them', () => {
  it('a buyer and a seller are refused the page and the file, a visitor is sent to sign in, the Data API refuses', async () => {
    const before = await auditCount();
    for (const email of ['buyer@demo.test', 'seller@demo.test']) {
      const cookie = await signInThroughApp(app.origin, email);
      expect((await get(`/dashboard/reports?report=sales&${YEAR}`, cookie)).status).toBe(403);
      const file = await get(`/dashboard/reports/export?report=sales&${YEAR}`, cookie);
      expect(file.status).toBe(403);
      expect(file.headers.get('content-type')).not.toContain('csv');
    }
    const visitor = await get(`/dashboard/reports/export?report=users&${YEAR}`, null);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toContain('auth=sign-in');

    const api = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    const args = { report: 'users', from_day: '2000-01-01', to_day: '2100-01-01', time_zone: 'UTC' };
    expect((await api.rpc('admin_report_rows', args)).error?.code).toBe('42501');
    await api.auth.signInWithPassword({ email: 'seller@demo.test', password: 'demo-password' });
    expect((await api.rpc('admin_report_rows', args)).error?.code).toBe('42501');
    expect((await api.rpc('admin_report_summary', args)).error?.code).toBe('42501');
    expect(await auditCount()).toBe(before);
  });
});

describe('what an admin gets', () => {
  it('the sales report: its totals, a page of 25 rows, and the whole CSV file, as the database holds them', async () => {
    const [expected] = await sql<{ rows: number; gross: string }>(
      `select count(*)::int as rows, sum(amount)::text as gross from public.purchases where status in ('completed', 'refunded')`,
    );
    const before = await auditCount();
    const page = await get(`/dashboard/reports?report=sales&${YEAR}`);
    expect(page.status).toBe(200);
    const html = await pageText(page);
    expect(html).toContain('Sales report, 2020-01-01 to');
    expect(html).toMatch(new RegExp(`<dt[^>]*>Sales</dt><dd[^>]*>${expected!.rows}</dd>`));
    const gross = Number(expected!.gross).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(html).toContain(`$${gross}`);
    expect(html.match(/<tr class="block py-2/g)).toHaveLength(Math.min(25, expected!.rows));
    expect(html).toContain(`Page 1 of ${Math.ceil(expected!.rows / 25)}`);
    expect(await auditCount()).toBe(before + 1);

    const file = await get(`/dashboard/reports/export?report=sales&${YEAR}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toMatch(
      /^attachment; filename="sales-report-2020-01-01-to-\d{4}-12-31\.csv"$/,
    );
    const lines = (await file.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Bought,Agent,Seller,Buyer,List price,Discount,Paid,Fee %,Fee,Status');
    expect(lines).toHaveLength(expected!.rows + 1);
    const paid = lines.slice(1).reduce((sum, line) => sum + Math.round(Number(line.split(',').at(-4)) * 100), 0);
    expect(paid / 100).toBe(Number(expected!.gross));
    const audit = await sql<{ details: { report: string; format: string; rows: number } }>(
      `select details from public.audit_log where action = 'report.generated' order by created_at desc limit 1`,
    );
    expect(audit[0]!.details).toMatchObject({ report: 'sales', format: 'csv', rows: expected!.rows });
  });

  it('users and content reports, and a CSV cell that would be a formula is text', async () => {
    await sql(`update public.agents set name = '=HYPERLINK("https://evil.example","x")' where id = (
                 select id from public.agents order by created_at limit 1)`);
    const users = await get(`/dashboard/reports/export?report=users&${YEAR}`);
    const [{ n }] = (await sql<{ n: number }>('select count(*)::int as n from public.users')) as [{ n: number }];
    expect((await users.text()).trimEnd().split('\r\n')).toHaveLength(n + 1);
    const content = await (await get(`/dashboard/reports/export?report=content&${YEAR}`)).text();
    expect(content).toContain(`"'=HYPERLINK(""https://evil.example"",""x"")"`);
    expect(content).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('a wrong query is a 400 with what to fix, on the page and for the file, and writes no audit; an unknown zone reads UTC', async () => {
    const before = await auditCount();
    const cases: Array<[string, string]> = [
      ['report=sales&from=2026-11-29&to=2026-11-01', REPORT_MESSAGES.order],
      ['report=salaries&from=2026-11-01&to=2026-11-29', REPORT_MESSAGES.report],
      ['report=sales&from=yesterday&to=2026-11-29', REPORT_MESSAGES.from],
      ['report=sales&from=2026-02-30&to=2026-03-01', REPORT_MESSAGES.from],
      ['report=sales&from=1900-01-01&to=2026-11-29', REPORT_MESSAGES.span],
      ['report=sales&from=2026-11-01&to=', REPORT_MESSAGES.to],
      ['report=sales&from=0000-01-01&to=0000-02-01', REPORT_MESSAGES.from],
    ];
    for (const [query, message] of cases) {
      const page = await get(`/dashboard/reports?${query}`);
      expect(page.status, query).toBe(400);
      expect(await pageText(page), query).toContain(message);
      const file = await get(`/dashboard/reports/export?${query}`);
      expect(file.status, query).toBe(400);
      expect(await file.text(), query).toContain(message);
    }
    // A time zone the browser knows and the database does not (an old alias): the days in UTC.
    const alias = await get(`/dashboard/reports?report=users&${YEAR}`, `${adminCookie}; am_ch_tz=US%2FPacific-New`);
    expect(alias.status).toBe(200);
    expect(await pageText(alias)).toContain('Days and times in UTC.');
    const aliasFile = await get(
      `/dashboard/reports/export?report=users&${YEAR}`,
      `${adminCookie}; am_ch_tz=US%2FPacific-New`,
    );
    expect(aliasFile.status).toBe(200);
    // A page past the last shows the last.
    const far = await get(`/dashboard/reports?report=users&${YEAR}&page=999999`);
    expect(far.status).toBe(200);
    expect(await auditCount()).toBe(before + 3);
  });
});

describe('a large range', () => {
  it('streams 100,000 purchases: the first bytes in under a second, every row, the server never holding the file', async () => {
    const [agent] = await sql<{ id: string; seller_id: string }>(
      `select id, seller_id from public.agents where status = 'published' order by created_at limit 1`,
    );
    const [buyer] = await sql<{ id: string }>(`select id from public.users where email = 'buyer@demo.test'`);
    // In one transaction without the per-row triggers (each would recount the agent's sales:
    // quadratic in a bulk insert), then the agent's figures once.
    await app.backend.db.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `insert into public.purchases (buyer_id, agent_id, seller_id, list_price, amount, status, status_reason, refunded_at, created_at)
       select $1, $2, $3, 19.99, 19.99, 'refunded', 'Bulk test ' || g,
              timestamptz '2001-01-01 00:00Z' + g * interval '1 minute',
              timestamptz '2001-01-01 00:00Z' + g * interval '1 minute'
       from generate_series(1, 100000) as g`,
        [buyer!.id, agent!.id, agent!.seller_id],
      );
    });
    await sql('select public.refresh_agent_stats($1)', [agent!.id]);
    await sql('analyze public.purchases');

    // The live heap (after a full collection), measured every twentieth chunk as the file arrives.
    const gc = (globalThis as { gc?: () => void }).gc;
    expect(gc, 'vitest runs with --expose-gc').toBeTypeOf('function');
    const liveHeap = () => {
      gc!();
      return process.memoryUsage().heapUsed;
    };
    const baseline = liveHeap();
    let peak = baseline;
    const started = performance.now();
    const answer = await get('/dashboard/reports/export?report=refunds&from=2001-01-01&to=2001-12-31');
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    const decoder = new TextDecoder();
    let firstBytesMs = 0;
    let bytes = 0;
    let lines = 0;
    for (let chunk = 0; ; chunk++) {
      const { value, done } = await reader.read();
      if (done) break;
      if (chunk === 0) firstBytesMs = performance.now() - started;
      bytes += value.byteLength;
      lines += decoder.decode(value, { stream: true }).split('\r\n').length - 1;
      if (chunk % 20 === 0) peak = Math.max(peak, liveHeap());
    }
    console.log(
      `100,000 purchases as CSV: first bytes after ${firstBytesMs.toFixed(0)} ms, ${(bytes / 1e6).toFixed(1)} MB, ` +
        `live heap at most ${((peak - baseline) / 1e6).toFixed(1)} MB above its start`,
    );
    expect(firstBytesMs).toBeLessThan(1000);
    expect(lines).toBe(100_001);
    // Holding the whole report (its rows as the Data API's JSON and as objects) would take several
    // times the file's size; a stream holds a batch or two (a thousand rows, about 130 kB of CSV).
    expect(peak - baseline).toBeLessThan(bytes / 4);
  }, 180_000);
});

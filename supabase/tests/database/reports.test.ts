/**
 * Reports (migration 20261215000100, ADR 068): only an admin generates them; each report's rows
 * come in (at, id) order, a page by `skip` or the next rows after the last one read (the CSV
 * stream); the totals count the same rows; wrong arguments are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, errorCodeAs, openSeededDatabase, rowsAs, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

const admin = user(DEMO.admin);
const RANGE = `'2020-01-01', '2100-01-01', 'Europe/Paris'`;

interface Row {
  at: string;
  id: string;
  fields: Record<string, unknown>;
}

const rows = (report: string, extra = '') =>
  rowsAs<Row>(db, admin, `select at::text, id, fields from public.admin_report_rows('${report}', ${RANGE}${extra})`);

describe('admin reports', () => {
  it('refuse everyone but an admin', async () => {
    for (const caller of [anon, user(DEMO.buyer), user(DEMO.seller)]) {
      for (const sql of [
        `select * from public.admin_report_rows('sales', ${RANGE})`,
        `select public.admin_report_summary('sales', ${RANGE})`,
      ]) {
        expect(await errorCodeAs(db, caller, sql), `${caller.role}: ${sql}`).toBe('42501');
      }
    }
  });

  it('refuse an unknown report, days in the wrong order and an unknown time zone', async () => {
    for (const sql of [
      `select * from public.admin_report_rows('salaries', ${RANGE})`,
      `select * from public.admin_report_rows('sales', '2026-11-29', '2026-11-01')`,
      `select * from public.admin_report_rows('sales', '2026-11-01', '2026-11-29', 'Mars/Olympus')`,
      `select public.admin_report_summary(null, '2026-11-01', '2026-11-29')`,
    ]) {
      expect(await errorCodeAs(db, admin, sql), sql).toBe('22023');
    }
  });

  it('give each report in time order, with totals that count the same rows', async () => {
    const [counts] = await db
      .query<{ sales: number; users: number; content: number; gross: string }>(
        `select (select count(*)::int from public.purchases where status in ('completed', 'refunded')) as sales,
              (select count(*)::int from public.users) as users,
              (select (select count(*) from public.agents) + (select count(*) from public.reviews))::int as content,
              (select sum(amount)::text from public.purchases where status in ('completed', 'refunded')) as gross`,
      )
      .then((result) => result.rows);
    for (const [report, expected] of [
      ['sales', counts!.sales],
      ['users', counts!.users],
      ['content', counts!.content],
    ] as const) {
      const all: Row[] = [];
      for (let skip = 0; ; skip += 1000) {
        const page = await rows(report, `, null, null, ${skip}, 1000`);
        all.push(...page);
        if (page.length < 1000) break;
      }
      expect(all, report).toHaveLength(expected);
      const order = all.map((row) => `${row.at}|${row.id}`);
      expect(order, report).toEqual(order.toSorted());
      const [{ summary }] = (await rowsAs<{ summary: { rows: number } }>(
        db,
        admin,
        `select public.admin_report_summary('${report}', ${RANGE}) as summary`,
      )) as [{ summary: { rows: number } }];
      expect(Number(summary.rows), report).toBe(expected);
    }
    const [{ summary }] = (await rowsAs<{ summary: { gross: number } }>(
      db,
      admin,
      `select public.admin_report_summary('sales', ${RANGE}) as summary`,
    )) as [{ summary: { gross: number } }];
    expect(Number(summary.gross)).toBe(Number(counts!.gross));
  });

  it('continue after the last row read exactly where a page would, and answer at most 1,000 rows', async () => {
    const firstSix = await rows('sales', ', null, null, 0, 6');
    const firstThree = await rows('sales', ', null, null, 0, 3');
    const last = firstThree[2]!;
    const nextThree = await rows('sales', `, '${last.at}', '${last.id}', 0, 3`);
    expect([...firstThree, ...nextThree]).toEqual(firstSix);
    const capped = await rows('users', ', null, null, 0, 100000');
    expect(capped.length).toBeLessThanOrEqual(1000);
    expect(firstSix[0]!.fields).toEqual(
      expect.objectContaining({ agent: expect.any(String), amount: expect.any(Number), status: expect.any(String) }),
    );
  });
});

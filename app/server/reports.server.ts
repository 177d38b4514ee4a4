/**
 * The admin reports (ADR 068): a page of a report with its totals, and the whole report as a CSV
 * file that streams a thousand rows at a time (the database's `admin_report_rows` after the last
 * row read), so a range of any size never sits in memory. Read with the admin's own client: the
 * database refuses anyone else. Each report shown or downloaded is written to the audit log.
 */
import { z } from 'zod';
import type { SupabaseConnection } from '~/context';
import { csvField } from '~/lib/csv';
import { REPORT_COLUMNS, reportCsvValue, type ReportName, type ReportQuery, type ReportRow } from '~/lib/reports';
import { writeAudit } from '~/server/admin.server';
import { unwrap } from '~/server/http-errors.server';
import { createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';

export const REPORT_PAGE_SIZE = 25;
/** Rows per read of the CSV stream (the Data API's most per request). */
const STREAM_BATCH = 1000;

const rowSchema = z.object({ at: z.string(), id: z.string(), fields: z.record(z.string(), z.unknown()) });
const rowsSchema = z.array(rowSchema);

const summarySchema = z
  .record(z.string(), z.union([z.number(), z.string()]))
  .transform((summary) => Object.fromEntries(Object.entries(summary).map(([key, value]) => [key, Number(value)])));
export type ReportSummary = Record<string, number>;

function reportArgs(query: ReportQuery, timeZone: string) {
  return { report: query.report, from_day: query.from, to_day: query.to, time_zone: timeZone };
}

export interface ReportPage {
  summary: ReportSummary;
  /** The zone its days and times are in (`readSummary`). */
  timeZone: string;
  rows: ReportRow[];
  page: number;
  pageCount: number;
}

/** One page of a report (`page` clamped to the last) and its totals. */
export async function readReportPage(
  client: AppSupabaseClient,
  query: ReportQuery,
  timeZone: string,
  page: number,
): Promise<ReportPage> {
  const { summary, timeZone: zone } = await readSummary(client, query, timeZone);
  const pageCount = Math.max(1, Math.ceil((summary.rows ?? 0) / REPORT_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pageCount);
  const rows = rowsSchema.parse(
    unwrap(
      await client.rpc('admin_report_rows', {
        ...reportArgs(query, zone),
        skip: (current - 1) * REPORT_PAGE_SIZE,
        max_rows: REPORT_PAGE_SIZE,
      }),
      'report rows',
    ),
  );
  return { summary, timeZone: zone, rows, page: current, pageCount };
}

/** One line of the CSV file. */
function csvLine(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * The whole report as CSV text, streamed: the header at once, then each batch as it is read.
 * A failed read ends the file with an error (the download fails rather than stopping short
 * unnoticed).
 */
export function reportCsvStream(
  client: AppSupabaseClient,
  query: ReportQuery,
  timeZone: string,
): ReadableStream<Uint8Array> {
  const columns = REPORT_COLUMNS[query.report];
  const encoder = new TextEncoder();
  let after: { at: string; id: string } | null = null;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvLine(columns.map((column) => column.header))));
      },
      async pull(controller) {
        if (done) return controller.close();
        const result = await client.rpc('admin_report_rows', {
          ...reportArgs(query, timeZone),
          ...(after ? { after_at: after.at, after_id: after.id } : {}),
          max_rows: STREAM_BATCH,
        });
        if (result.error) return controller.error(new Error(`report rows: ${result.error.message}`));
        const rows = rowsSchema.parse(result.data);
        const last = rows.at(-1);
        if (last) after = { at: last.at, id: last.id };
        if (rows.length < STREAM_BATCH) done = true;
        const text = rows
          .map((row) => csvLine(columns.map((column) => reportCsvValue(row, column, timeZone))))
          .join('');
        if (text) controller.enqueue(encoder.encode(text));
        else controller.close();
      },
    },
    // One batch read ahead at most.
    { highWaterMark: 1 },
  );
}

/** Writes a generated report to the audit log: which, which days, shown or as CSV, how many rows. */
export async function recordReport(
  connection: SupabaseConnection,
  adminId: string,
  report: { query: ReportQuery; timeZone: string; format: 'page' | 'csv'; rows: number },
): Promise<void> {
  await writeAudit(createServiceSupabase(connection), {
    actorId: adminId,
    action: 'report.generated',
    targetType: 'report',
    targetId: crypto.randomUUID(),
    details: {
      report: report.query.report satisfies ReportName,
      from: report.query.from,
      to: report.query.to,
      time_zone: report.timeZone,
      format: report.format,
      rows: report.rows,
    },
  });
}

/**
 * A report's totals (its rows, and the sums it is read for), and the time zone its days are read
 * in: the admin's, or UTC when the database does not know that zone (a browser may name an old
 * alias, such as US/Pacific-New, that PostgreSQL's zone data no longer has).
 */
export async function readSummary(
  client: AppSupabaseClient,
  query: ReportQuery,
  timeZone: string,
): Promise<{ summary: ReportSummary; timeZone: string }> {
  const result = await client.rpc('admin_report_summary', reportArgs(query, timeZone));
  if (result.error?.code === '22023' && timeZone !== 'UTC') return readSummary(client, query, 'UTC');
  return { summary: summarySchema.parse(unwrap(result, 'report summary')), timeZone };
}

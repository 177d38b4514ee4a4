/**
 * `GET /dashboard/reports/export?report=…&from=…&to=…`: a report as a CSV file (ADR 068), streamed
 * from the database a thousand rows at a time, written to the audit log. A resource route inside
 * the Reports section, so the same permission guards it (`requireSection`); a plain link
 * downloads it, with or without JavaScript. A wrong query answers 400 with what to fix.
 */
import { connectionContext, supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { attachmentDisposition } from '~/lib/content-disposition';
import { isoDay } from '~/lib/dashboard-format';
import { parseReportQuery, reportFileName } from '~/lib/reports';
import { requireSection } from '~/server/guards.server';
import { readSummary, recordReport, reportCsvStream } from '~/server/reports.server';
import type { Route } from './+types/reports-export';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const asked = parseReportQuery(new URL(args.request.url).searchParams, isoDay(new Date().toISOString(), timeZone));
  if (asked.status !== 'valid') {
    const problems = asked.status === 'invalid' ? Object.values(asked.errors) : ['Choose a report and its days.'];
    return new Response(`${problems.join('\n')}\n`, {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
    });
  }
  const client = args.context.get(supabaseContext);
  const { summary, timeZone: zone } = await readSummary(client, asked.query, timeZone);
  await recordReport(args.context.get(connectionContext), viewer.id, {
    query: asked.query,
    timeZone: zone,
    format: 'csv',
    rows: summary.rows ?? 0,
  });
  return new Response(reportCsvStream(client, asked.query, zone), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': attachmentDisposition(reportFileName(asked.query)),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

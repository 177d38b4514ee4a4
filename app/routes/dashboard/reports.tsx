import { Download } from 'lucide-react';
import { data, Form, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { buttonClass } from '~/components/ui/button';
import { DataTable, type DataColumn } from '~/components/ui/data-table';
import { Field, FormMessage, Labelled } from '~/components/ui/field';
import { Pager } from '~/components/ui/pager';
import { connectionContext, supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatMoney, isoDay } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import { pageParam } from '~/lib/pagination';
import {
  REPORT_COLUMNS,
  REPORT_DESCRIPTIONS,
  REPORT_LABELS,
  REPORT_MESSAGES,
  REPORT_NAMES,
  REPORTS_PATH,
  parseReportQuery,
  reportCell,
  reportExportHref,
  type ReportName,
  type ReportQuery,
  type ReportRow,
} from '~/lib/reports';
import { requireSection } from '~/server/guards.server';
import { readReportPage, recordReport, type ReportPage, type ReportSummary } from '~/server/reports.server';
import type { Route } from './+types/reports';

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

/**
 * Reports (admins, `generate_reports`; ADR 068): a GET form (report, first and last day, in the
 * admin's time zone) and the report it asks for, a page at a time, with its totals and its CSV
 * file. Every report shown is written to the audit log (the CSV download too, in reports-export.ts).
 */
export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const url = new URL(args.request.url);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const asked = parseReportQuery(url.searchParams, isoDay(new Date().toISOString(), timeZone));
  if (asked.status === 'empty') return { asked, timeZone, report: null };
  if (asked.status === 'invalid') return data({ asked, timeZone, report: null }, { status: 400 });
  const report = await readReportPage(
    args.context.get(supabaseContext),
    asked.query,
    timeZone,
    pageParam(url.searchParams.get('page')),
  );
  await recordReport(args.context.get(connectionContext), viewer.id, {
    query: asked.query,
    timeZone: report.timeZone,
    format: 'page',
    rows: report.rows.length,
  });
  return { asked, timeZone: report.timeZone, report };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Reports', 'Sales, refunds, users and content over the days you choose, with CSV files.');

function ReportForm({
  values,
  errors,
}: {
  values: Record<'report' | 'from' | 'to', string>;
  errors: Partial<Record<'report' | 'from' | 'to', string>>;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === 'loading' && navigation.location.pathname === REPORTS_PATH;
  const invalid = Object.keys(errors).length > 0;
  return (
    <Form
      method="get"
      action={REPORTS_PATH}
      aria-label="Choose a report"
      className={`${PANEL} flex flex-col gap-4`}
      // A new form state for each report asked (the URL is the state).
      key={`${values.report}|${values.from}|${values.to}`}
    >
      {invalid ? <FormMessage kind="error" message={REPORT_MESSAGES.invalid} /> : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <Labelled label="Report" error={errors.report}>
          {(links) => (
            <select
              {...links}
              name="report"
              defaultValue={values.report}
              className="mt-1 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950"
            >
              {!REPORT_NAMES.includes(values.report as ReportName) ? <option value="">Choose a report</option> : null}
              {REPORT_NAMES.map((name) => (
                <option key={name} value={name}>
                  {REPORT_LABELS[name]}
                </option>
              ))}
            </select>
          )}
        </Labelled>
        <Field label="From" type="date" name="from" defaultValue={values.from} error={errors.from} required />
        <Field label="To" type="date" name="to" defaultValue={values.to} error={errors.to} required />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={buttonClass('primary')}>
          Show report
        </button>
        <span role="status" className={SECONDARY}>
          {pending ? 'Loading the report…' : ''}
        </span>
      </div>
    </Form>
  );
}

const SUMMARY_LABELS: Record<ReportName, (summary: ReportSummary) => Array<[string, string]>> = {
  sales: (summary) => [
    ['Sales', count(summary.rows)],
    ['Gross', formatMoney(summary.gross ?? 0)],
    ['Platform fees', formatMoney(summary.fees ?? 0)],
    ['Refunded since', count(summary.refunded)],
  ],
  refunds: (summary) => [
    ['Refunds', count(summary.rows)],
    ['Amount refunded', formatMoney(summary.amount ?? 0)],
  ],
  users: (summary) => [
    ['New accounts', count(summary.rows)],
    ['Buyers', count(summary.buyers)],
    ['Sellers', count(summary.sellers)],
    ['Admins', count(summary.admins)],
  ],
  content: (summary) => [
    ['Items', count(summary.rows)],
    ['Agents listed', count(summary.agents)],
    ['Reviews written', count(summary.reviews)],
  ],
};

function count(value: number | undefined): string {
  return (value ?? 0).toLocaleString('en-US');
}

function Report({ query, report, timeZone }: { query: ReportQuery; report: ReportPage; timeZone: string }) {
  const columns: DataColumn<ReportRow>[] = REPORT_COLUMNS[query.report]
    .filter((column) => !column.fileOnly)
    .map((column, index) => ({
      header: column.header,
      cell: (row) => reportCell(row, column, timeZone),
      numeric: column.kind === 'money' || column.kind === 'count' || column.kind === 'percent',
      rowHeader: index === 0,
      className: column.kind === 'time' ? 'md:whitespace-nowrap' : undefined,
    }));
  const title = `${REPORT_LABELS[query.report]} report, ${query.from} to ${query.to}`;
  return (
    <section aria-labelledby="report-title" className={`${PANEL} flex flex-col gap-4`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="report-title" className="text-lg font-semibold">
            {title}
          </h2>
          <p className={`mt-1 ${SECONDARY}`}>
            {REPORT_DESCRIPTIONS[query.report]} Days and times in {timeZone}.
          </p>
        </div>
        {/* A plain link: the browser saves the file, with or without JavaScript. */}
        <a href={reportExportHref(query)} className={buttonClass('secondary')} download>
          <Download aria-hidden="true" className="size-4" />
          Download CSV
        </a>
      </div>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {SUMMARY_LABELS[query.report](report.summary).map(([term, value]) => (
          <div key={term}>
            <dt className={SECONDARY}>{term}</dt>
            <dd className="text-xl font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {report.rows.length === 0 ? (
        <p className={SECONDARY}>Nothing happened in these days.</p>
      ) : (
        <>
          <DataTable caption={title} columns={columns} rows={report.rows} rowKey={(row) => row.id} framed={false} />
          <Pager
            label={`Pages of the ${REPORT_LABELS[query.report].toLowerCase()} report`}
            page={report.page}
            pageCount={report.pageCount}
          />
        </>
      )}
    </section>
  );
}

export default function ReportsPage({ loaderData }: Route.ComponentProps) {
  const { asked, report, timeZone } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Reports</h1>
        <p className={`mt-1 ${SECONDARY}`}>
          Sales, refunds, users and content over the days you choose, on the page and as a CSV file. Each report you
          generate is written to the audit log.
        </p>
      </header>
      <ReportForm values={asked.values} errors={asked.status === 'invalid' ? asked.errors : {}} />
      {asked.status === 'valid' && report ? <Report query={asked.query} report={report} timeZone={timeZone} /> : null}
      {asked.status === 'empty' ? <p className={SECONDARY}>Choose a report and its days, then Show report.</p> : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

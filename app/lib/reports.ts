/**
 * The admin reports (ADR 068), declared once: each report's name, its columns and how each value
 * reads on the page and in the CSV file, and the query a report is asked with (`?report=…&from=…
 * &to=…&page=…`, a GET form that works without JavaScript). The rows come from the database's
 * `admin_report_rows` (app/server/reports.server.ts), one definition for the page and the file.
 */
import { z } from 'zod';
import { DELETED_ACCOUNT, formatDate, formatMoney, isoDay } from '~/lib/dashboard-format';
import { dateTimeFormat } from '~/lib/intl';
import type { CsvValue } from '~/lib/csv';

export const REPORT_NAMES = ['sales', 'refunds', 'users', 'content'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

export const REPORTS_PATH = '/dashboard/reports';
export const REPORTS_EXPORT_PATH = '/dashboard/reports/export';

export const REPORT_LABELS: Record<ReportName, string> = {
  sales: 'Sales',
  refunds: 'Refunds',
  users: 'Users',
  content: 'Content',
};

export const REPORT_DESCRIPTIONS: Record<ReportName, string> = {
  sales: 'Purchases completed (or later refunded), by the day they were bought, with the platform fee of each.',
  refunds: 'Refunded purchases, by the day they were refunded, with who refunded them and why.',
  users: 'Accounts, by the day they signed up, with their role and completed purchases.',
  content: 'Agents listed and reviews written, by the day they were created.',
};

/** One row of a report: when it happened, its id, and its columns. */
export interface ReportRow {
  at: string;
  id: string;
  fields: Record<string, unknown>;
}

type ValueKind = 'time' | 'text' | 'money' | 'percent' | 'count' | 'yes-no';

export interface ReportColumn {
  /** `at` is the row's own time; any other key is one of its fields. */
  key: string;
  header: string;
  kind: ValueKind;
  /** In the CSV file only (the page keeps to the columns a screen holds). */
  fileOnly?: true;
}

const at = (header: string): ReportColumn => ({ key: 'at', header, kind: 'time' });
const text = (key: string, header: string): ReportColumn => ({ key, header, kind: 'text' });
const money = (key: string, header: string): ReportColumn => ({ key, header, kind: 'money' });

export const REPORT_COLUMNS: Record<ReportName, readonly ReportColumn[]> = {
  sales: [
    at('Bought'),
    text('agent', 'Agent'),
    text('seller', 'Seller'),
    text('buyer', 'Buyer'),
    { ...money('list_price', 'List price'), fileOnly: true },
    { ...money('discount', 'Discount'), fileOnly: true },
    money('amount', 'Paid'),
    { key: 'fee_percent', header: 'Fee %', kind: 'percent', fileOnly: true },
    money('fee', 'Fee'),
    text('status', 'Status'),
  ],
  refunds: [
    at('Refunded'),
    { key: 'bought_at', header: 'Bought', kind: 'time', fileOnly: true },
    text('agent', 'Agent'),
    text('seller', 'Seller'),
    text('buyer', 'Buyer'),
    money('amount', 'Amount'),
    text('refunded_by', 'Refunded by'),
    text('reason', 'Reason'),
  ],
  users: [
    at('Signed up'),
    text('username', 'Username'),
    text('email', 'Email'),
    text('role', 'Role'),
    { key: 'banned', header: 'Banned', kind: 'yes-no' },
    { key: 'purchases', header: 'Purchases', kind: 'count' },
  ],
  content: [
    at('Created'),
    text('kind', 'Kind'),
    text('agent', 'Agent'),
    text('author', 'Author'),
    text('status', 'Status'),
    { key: 'rating', header: 'Rating', kind: 'count' },
    text('note', 'Note'),
  ],
};

/** The columns naming an account, which reads as deleted when it is gone (its records stay). */
const PERSON_KEYS = new Set(['seller', 'buyer', 'author']);

function raw(row: ReportRow, column: ReportColumn): unknown {
  return column.key === 'at' ? row.at : row.fields[column.key];
}

/** What an empty value reads as, on the page and in the file. */
const emptyValue = (column: ReportColumn) => (PERSON_KEYS.has(column.key) ? DELETED_ACCOUNT : '');
const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

const MINUTE = (timeZone: string) => dateTimeFormat({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });

/** A value as the page shows it. */
export function reportCell(row: ReportRow, column: ReportColumn, timeZone: string): string {
  const value = raw(row, column);
  if (isEmpty(value)) return emptyValue(column);
  switch (column.kind) {
    case 'time':
      return `${formatDate(String(value), timeZone)}, ${MINUTE(timeZone).format(new Date(String(value)))}`;
    case 'money':
      return formatMoney(Number(value));
    case 'percent':
      return `${Number(value)}%`;
    case 'count':
      return Number(value).toLocaleString('en-US');
    case 'yes-no':
      return value ? 'Yes' : 'No';
    default:
      return String(value);
  }
}

/** A value as the CSV file holds it: days and times as `2026-11-29 14:05` in the admin's zone, amounts as numbers. */
export function reportCsvValue(row: ReportRow, column: ReportColumn, timeZone: string): CsvValue {
  const value = raw(row, column);
  if (isEmpty(value)) return emptyValue(column);
  switch (column.kind) {
    case 'time':
      return `${isoDay(String(value), timeZone)} ${MINUTE(timeZone).format(new Date(String(value)))}`;
    case 'money':
      return Number(value).toFixed(2);
    case 'percent':
    case 'count':
      return Number(value);
    case 'yes-no':
      return value ? 'yes' : 'no';
    default:
      return String(value);
  }
}

export const REPORT_MESSAGES = {
  report: 'Choose Sales, Refunds, Users or Content.',
  from: 'Enter the first day as a date (YYYY-MM-DD).',
  to: 'Enter the last day as a date (YYYY-MM-DD).',
  order: 'The last day cannot be before the first.',
  span: 'A report covers at most ten years; choose fewer days.',
  invalid: 'Check the report and its days.',
} as const;

const MAX_SPAN_DAYS = 3660;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A calendar day from year 1 (PostgreSQL has no year 0). */
const day = (message: string) => z.iso.date({ error: message }).refine((value) => !value.startsWith('0000'), message);

export const reportQuerySchema = z
  .object({
    report: z.enum(REPORT_NAMES, { error: REPORT_MESSAGES.report }),
    from: day(REPORT_MESSAGES.from),
    to: day(REPORT_MESSAGES.to),
  })
  .superRefine((query, context) => {
    const span = (Date.parse(query.to) - Date.parse(query.from)) / DAY_MS;
    if (span < 0) context.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.order });
    else if (span > MAX_SPAN_DAYS) context.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.span });
  });

export type ReportQuery = z.infer<typeof reportQuerySchema>;

export type ParsedReportQuery =
  | { status: 'empty'; values: Record<'report' | 'from' | 'to', string> }
  | { status: 'valid'; query: ReportQuery; values: Record<'report' | 'from' | 'to', string> }
  | {
      status: 'invalid';
      errors: Partial<Record<'report' | 'from' | 'to', string>>;
      values: Record<'report' | 'from' | 'to', string>;
    };

/**
 * The report asked for in the URL. Without any of its parameters, none (the form, filled with the
 * last 30 days' sales); with a wrong one, a message per field and what was typed.
 */
export function parseReportQuery(params: URLSearchParams, today: string): ParsedReportQuery {
  const given = (name: string) => params.get(name)?.trim() ?? '';
  if (!params.has('report') && !params.has('from') && !params.has('to')) {
    const monthAgo = new Date(Date.parse(today) - 29 * DAY_MS).toISOString().slice(0, 10);
    return { status: 'empty', values: { report: 'sales', from: monthAgo, to: today } };
  }
  const values = { report: given('report'), from: given('from'), to: given('to') };
  const parsed = reportQuerySchema.safeParse(values);
  if (parsed.success) return { status: 'valid', query: parsed.data, values };
  const errors: Partial<Record<'report' | 'from' | 'to', string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as 'report' | 'from' | 'to';
    errors[field] ??= issue.message;
  }
  return { status: 'invalid', errors, values };
}

/** The URL of a report's CSV file. */
export function reportExportHref(query: ReportQuery): string {
  return `${REPORTS_EXPORT_PATH}?${new URLSearchParams(query)}`;
}

/** The CSV file's name: `sales-report-2026-11-01-to-2026-11-29.csv`. */
export function reportFileName(query: ReportQuery): string {
  return `${query.report}-report-${query.from}-to-${query.to}.csv`;
}

/**
 * CSV text (RFC 4180): fields separated by commas, records by CRLF; a field with a comma, a
 * double quote, CR or LF is quoted, its quotes doubled, and so is one with a semicolon or a tab
 * (the separators a spreadsheet uses in many locales: unquoted, `a;=1+1` would put a formula in
 * a cell of its own). Spreadsheets run a cell that starts with
 * `=`, `+`, `-`, `@`, a tab or CR as a formula (CSV injection), so such a text cell gets a leading
 * single quote first and is read as text. Numbers are written as they are (a negative amount
 * stays a number).
 */
export type CsvValue = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** One field: text neutralised against formulas, then quoted when it must be. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole document: the header line, then one line per row, each ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/**
 * One transaction per request: `withClaims` sets the role and claims, plus
 * `request.method`, `request.path`, `request.headers`, `request.cookies` and, for reads,
 * READ ONLY — all in the statement that opens the transaction.
 */
import { withClaims, type Claims, type Database, type Transaction } from '../database';

export interface RequestSettings {
  method: string;
  path: string;
  headers: Headers;
  readOnly: boolean;
}

export function runAsRequest<T>(
  db: Database,
  claims: Claims,
  settings: RequestSettings,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const headers: Record<string, string> = {};
  let cookies: Record<string, string> = {};
  settings.headers.forEach((value, name) => {
    if (name === 'cookie') cookies = parseCookies(value);
    else headers[name] = value;
  });
  return withClaims(db, claims, work, {
    'request.method': settings.method,
    'request.path': settings.path,
    'request.headers': JSON.stringify(headers),
    'request.cookies': JSON.stringify(cookies),
    transaction_read_only: settings.readOnly ? 'on' : 'off',
  });
}

function parseCookies(header: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0) result[part.slice(0, index).trim()] = part.slice(index + 1).trim();
  }
  return result;
}

/**
 * One transaction per request (§3.11 step 3): `withClaims` sets the role and claims; this adds
 * `request.method`, `request.path`, `request.headers`, `request.cookies` and, for reads, READ ONLY.
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
  return withClaims(db, claims, async (tx) => {
    await tx.query(
      `select set_config('request.method', $1, true), set_config('request.path', $2, true),
              set_config('request.headers', $3, true), set_config('request.cookies', $4, true),
              set_config('transaction_read_only', $5, true)`,
      [
        settings.method,
        settings.path,
        JSON.stringify(headers),
        JSON.stringify(cookies),
        settings.readOnly ? 'on' : 'off',
      ],
    );
    return work(tx);
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

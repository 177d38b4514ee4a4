import type { Database } from './database';
import type { Keys } from './keys';
import type { LiveSessions } from './live-sessions';

/** What every service of the embedded backend is built from. */
export interface ServiceContext {
  db: Database;
  keys: Keys;
  /** Directory of the data (PGlite's files, the signing secret) or `null` in memory mode. */
  dataDir: string | null;
  /** Directory of Storage's file bytes, or `null` to keep them in memory. */
  storageDir: string | null;
  /** The project's `supabase/` folder (config.toml, migrations, seed.sql). */
  supabaseDir: string;
  /** The public origin the backend is reached on by browsers, e.g. `http://localhost:3000`. */
  siteUrl(): string;
  /** The Auth sessions that still exist: Auth reports ended ones, the Data API and Storage ask (ADR 020). */
  sessions: LiveSessions;
}

/**
 * One service behind the gateway. `path` is the request path with the service prefix removed
 * (`/rest/v1/agents` arrives as `/agents`); the gateway has already checked the API key and
 * rewritten `Authorization` as the Supabase gateway does.
 */
export type ServiceHandler = (request: Request, path: string) => Promise<Response>;

export function jsonResponse(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const result = new Headers(headers);
  if (!result.has('content-type')) result.set('content-type', 'application/json; charset=utf-8');
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: result });
}

/**
 * Two embedded backends on one database, as two app processes of the server-backed mode would
 * run them: on the `postgres` test project two backends, each with its own pool and
 * listening connection, over one fresh database of the test server. PGlite belongs to one process,
 * so on the `pglite` project both names are the same backend: the tests still check the shared
 * paths (limits in tables, changes through LISTEN/NOTIFY), only not across processes.
 */
import {
  createEmbeddedBackend,
  type EmbeddedBackendOptions,
  type EmbeddedBackend,
} from '@agentmarket/supabase-embedded';
import { onPostgresServer, scratchDatabaseUrl } from './database-target';

export interface TwoBackends {
  a: EmbeddedBackend;
  b: EmbeddedBackend;
  /** Whether `a` and `b` are distinct backends (the `postgres` project). */
  apart: boolean;
  close(): Promise<void>;
}

export async function openTwoBackends(options: Partial<EmbeddedBackendOptions> = {}): Promise<TwoBackends> {
  const databaseUrl = await scratchDatabaseUrl();
  const open = () => createEmbeddedBackend({ dataDir: null, databaseUrl, seed: true, log: () => {}, ...options });
  const a = await open();
  const b = onPostgresServer ? await open() : a;
  return {
    a,
    b,
    apart: a !== b,
    async close() {
      await b.close();
      await a.close();
    },
  };
}

/** A request to `backend` as if from the visitor at `address`, optionally with a user's token. */
export function call(
  backend: EmbeddedBackend,
  path: string,
  {
    method = 'GET',
    body,
    token,
    address = '203.0.113.7',
  }: { method?: string; body?: unknown; token?: string; address?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { apikey: backend.anonKey };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const request = new Request(`http://localhost${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return backend.handle(request, address);
}

/**
 * The one factory for Supabase clients. It alone knows whether hosted Supabase or the embedded
 * backend answers: the connection in the router context says where, and for the embedded backend
 * carries an in-process `fetch` (no network hop).
 */
import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { SupabaseConnection } from '~/context';
import { isSecureRequest } from '~/server/cookies.server';
import type { Database } from '~/types/database';

/**
 * Every client is typed by the schema generated from the migrations (`npm run db:types`):
 * table, column and RPC names are checked, and rows get their column types.
 */
export type AppSupabaseClient = SupabaseClient<Database>;

/** Supabase Realtime needs a WebSocket the server never uses; on Node 20 there is none. */
class NoRealtimeTransport {
  constructor() {
    throw new Error('Realtime is not used on the server');
  }
}

function userAgentHeader(request: Request): Record<string, string> {
  const userAgent = request.headers.get('user-agent');
  return userAgent ? { 'User-Agent': userAgent.slice(0, 512) } : {};
}

/**
 * A request-scoped client that reads the session from cookies and collects the cookies to set.
 * `clientAddress` is the visitor's: the embedded backend rate-limits sign-ins by it.
 */
export function createSupabase(request: Request, connection: SupabaseConnection, clientAddress?: string) {
  const responseHeaders = new Headers();
  const backendFetch = clientAddress && connection.fetchFrom ? connection.fetchFrom(clientAddress) : connection.fetch;
  const client = createServerClient<Database>(connection.url, connection.anonKey, {
    // HttpOnly: no browser code reads the session; Secure whenever the app is served over HTTPS.
    cookieOptions: { path: '/', sameSite: 'lax', httpOnly: true, secure: isSecureRequest(request) },
    cookies: {
      getAll: () =>
        parseCookieHeader(request.headers.get('cookie') ?? '').map(({ name, value }) => ({ name, value: value ?? '' })),
      setAll: (cookies, cacheHeaders) => {
        for (const { name, value, options } of cookies) {
          responseHeaders.append('set-cookie', serializeCookieHeader(name, value, options));
        }
        for (const [name, value] of Object.entries(cacheHeaders ?? {})) responseHeaders.set(name, value);
      },
    },
    global: {
      ...(backendFetch ? { fetch: backendFetch } : {}),
      // The Auth service records the browser's User-Agent with a new session (the session list).
      headers: userAgentHeader(request),
    },
    realtime: { transport: NoRealtimeTransport as never },
  });
  return { client, responseHeaders };
}

/** A client that holds no session: it acts with its API key alone. */
function sessionlessClient(connection: SupabaseConnection, apiKey: string): AppSupabaseClient {
  return createClient<Database>(connection.url, apiKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: connection.fetch ? { fetch: connection.fetch } : undefined,
    realtime: { transport: NoRealtimeTransport as never },
  });
}

/**
 * A client that acts with a given access token (the seller API's caller, ADR 074); requests on
 * the embedded backend count against `clientAddress`, as a browser's would.
 */
export function bearerSupabase(
  connection: SupabaseConnection,
  accessToken: string,
  clientAddress: string,
): AppSupabaseClient {
  const backendFetch = connection.fetchFrom ? connection.fetchFrom(clientAddress) : connection.fetch;
  return createClient<Database>(connection.url, connection.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: {
      headers: { Authorization: `Bearer ${accessToken}` },
      ...(backendFetch ? { fetch: backendFetch } : {}),
    },
    realtime: { transport: NoRealtimeTransport as never },
  });
}

/**
 * A new anonymous client that keeps nothing between calls and shares nothing with the request's:
 * for checks such as "is this the current password" (a sign-in whose session is thrown away).
 */
export function throwawaySupabase(connection: SupabaseConnection): AppSupabaseClient {
  return sessionlessClient(connection, connection.anonKey);
}

const publicClients = new Map<string, AppSupabaseClient>();

/**
 * What tells backends apart in a cache. The in-process backend is one backend whichever origin it
 * is addressed on (each request's own, server/app.ts): one entry per key, never one per Host header.
 */
export function backendKey(connection: SupabaseConnection): string {
  return connection.fetch ? connection.anonKey : `${connection.url} ${connection.anonKey}`;
}

/**
 * An anonymous client, one per backend: for reads of public data (the published catalogue)
 * that are the same for every visitor, so their results may be shared between requests.
 * Row-level security applies as for any signed-out visitor.
 */
export function publicSupabase(connection: SupabaseConnection): AppSupabaseClient {
  const key = backendKey(connection);
  let client = publicClients.get(key);
  if (!client) {
    client = sessionlessClient(connection, connection.anonKey);
    publicClients.set(key, client);
  }
  return client;
}

/**
 * The service-role client, for trusted server work after an explicit guard (recording
 * purchases, role changes). Never pass it to code that acts on user input unchecked.
 */
export function createServiceSupabase(connection: SupabaseConnection): AppSupabaseClient {
  if (!connection.serviceRoleKey) throw new Error('SUPABASE_SERVICE_ROLE_KEY is not configured');
  return sessionlessClient(connection, connection.serviceRoleKey);
}

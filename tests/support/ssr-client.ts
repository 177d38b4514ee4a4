/**
 * An @supabase/ssr server client over an in-memory cookie jar, as the app's factory builds it
 * per request: `getAll` reads the jar, `setAll` writes (and deletes, Max-Age=0) into it. Also
 * records every request the client sends and every `setAll` call.
 */
import { createServerClient } from '@supabase/ssr';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { ContractTarget } from './contract-target';

class NoRealtime {
  constructor() {
    throw new Error('realtime disabled in tests');
  }
}

export interface CookieWrite {
  name: string;
  value: string;
  options: Record<string, unknown>;
}

export class CookieJar {
  readonly cookies = new Map<string, string>();
  readonly writes: CookieWrite[][] = [];
  readonly headers: Record<string, string>[] = [];

  getAll() {
    return [...this.cookies].map(([name, value]) => ({ name, value }));
  }

  setAll(cookies: CookieWrite[], headers: Record<string, string>) {
    this.writes.push(cookies);
    this.headers.push(headers);
    for (const { name, value, options } of cookies) {
      if (!value || options.maxAge === 0) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

export interface SsrClient {
  client: SupabaseClient;
  jar: CookieJar;
  /** `METHOD path?query` of every request sent, e.g. `POST /auth/v1/token?grant_type=password`. */
  requests: string[];
}

/** A server client on `jar` (a new jar when omitted), like one request of the app. */
export function ssrClient(target: ContractTarget, jar = new CookieJar()): SsrClient {
  const requests: string[] = [];
  const trackingFetch: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    return fetch(request);
  };
  const client = createServerClient(target.url, target.anonKey, {
    cookies: {
      getAll: () => jar.getAll(),
      setAll: (cookies, headers) => jar.setAll(cookies as CookieWrite[], headers as Record<string, string>),
    },
    global: { fetch: trackingFetch },
    realtime: { transport: NoRealtime as never },
  });
  return { client: client as unknown as SupabaseClient, jar, requests };
}

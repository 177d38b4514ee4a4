/**
 * Fault injection for end-to-end tests: with ENABLE_FAULT_INJECTION=true (never in a real
 * deployment) a request carrying the cookie `am_fault=<name>` makes that backend call fail, so
 * the error screens can be tested against the real server.
 */
import { parseCookieHeader } from '@supabase/ssr';
import { env } from '~/server/env.server';

export function injectedFault(request: Request, name: 'catalogue'): string | null {
  if (!env.ENABLE_FAULT_INJECTION) return null;
  const cookie = parseCookieHeader(request.headers.get('cookie') ?? '').find((entry) => entry.name === 'am_fault');
  return cookie?.value === name ? 'Injected fault: the catalogue service did not answer.' : null;
}

/**
 * Fault injection for end-to-end tests: with ENABLE_FAULT_INJECTION=true (never in a real
 * deployment) a request carrying the cookie `am_fault=<name>` makes that backend call fail, so
 * the error screens can be tested against the real server (docs/decisions/007).
 */
import { parseCookieHeader } from '@supabase/ssr';
import { env } from '~/server/env.server';
import { unavailable } from '~/server/http-errors.server';

const enabled = env.ENABLE_FAULT_INJECTION;

/** The backend calls a test can make fail, each named after what it reads. */
const FAULTS = {
  catalogue: 'the catalogue service did not answer.', // marketplace loader
  agent: 'the agent page could not be read.', // agent page loader
  purchase: 'the agent could not be checked for a purchase.', // agent page action (Buy)
  download: 'the package could not be checked for download.', // agent download route
  dashboard: 'the dashboard figures could not be read.', // dashboard overview loader
  collection: 'the collection could not be read.', // My Collection loader
  profile: 'the profile could not be read.', // profile loader
  purchases: 'the purchase history could not be read.', // purchase history loader
} as const;

export type FaultName = keyof typeof FAULTS;

function injectedFault(request: Request, name: FaultName): string | null {
  if (!enabled) return null;
  const cookie = parseCookieHeader(request.headers.get('cookie') ?? '').find((entry) => entry.name === 'am_fault');
  return cookie?.value === name ? `Injected fault: ${FAULTS[name]}` : null;
}

/**
 * Throws what a failed backend call throws (`unavailable`, 503) when the fault is injected. The
 * screen shows the injected message, so a test knows the failure it sees is the one it asked for.
 */
export function failIfInjected(request: Request, name: FaultName): void {
  const fault = injectedFault(request, name);
  if (!fault) return;
  console.error(`Backend call failed (${name}):`, fault);
  unavailable(fault);
}

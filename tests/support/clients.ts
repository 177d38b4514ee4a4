/**
 * supabase-js clients for the contract suite. Realtime is given a transport that refuses to
 * start: on Node 20 supabase-js otherwise throws at construction (no global WebSocket), and
 * the tests never subscribe.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { ContractTarget } from './contract-target';

class NoRealtime {
  constructor() {
    throw new Error('realtime disabled in tests');
  }
}

function build(target: ContractTarget, key: string, accessToken?: string, flowType?: 'pkce'): SupabaseClient {
  return createClient(target.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType },
    realtime: { transport: NoRealtime as never },
    global: accessToken ? { headers: { Authorization: `Bearer ${accessToken}` } } : {},
  });
}

export function anonClient(target: ContractTarget): SupabaseClient {
  return build(target, target.anonKey);
}

/** An anon client of the PKCE flow, as the app's server-side client: email links come back with `?code=`. */
export function pkceClient(target: ContractTarget): SupabaseClient {
  return build(target, target.anonKey, undefined, 'pkce');
}

export function serviceClient(target: ContractTarget): SupabaseClient {
  return build(target, target.serviceRoleKey);
}

/** A client that sends `accessToken` as the bearer on every Data API / Storage request. */
export function userClient(target: ContractTarget, accessToken: string): SupabaseClient {
  return build(target, target.anonKey, accessToken);
}

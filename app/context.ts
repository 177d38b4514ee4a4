/**
 * Typed keys of the per-request router context. The HTTP layer (server/app.ts) fills the
 * connection and the nonce; the root middleware adds the Supabase client and the viewer.
 */
import { createContext } from 'react-router';
import type { Viewer } from '~/lib/viewer';
import type { FirstAdminSetup } from '~/server/first-admin.server';
import type { PendingSecondFactor } from '~/server/two-factor.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

/** How this process reaches Supabase: hosted, or the embedded backend through an in-process fetch. */
export interface SupabaseConnection {
  url: string;
  anonKey: string;
  serviceRoleKey?: string;
  fetch?: typeof fetch;
  /**
   * Embedded backend only: the in-process `fetch` for requests made on behalf of the visitor at
   * a client address, so the backend's rate limits count that visitor, not the app server.
   */
  fetchFrom?: (clientAddress: string) => typeof fetch;
  /**
   * Signs a short-lived access token for a user: the seller API acts as an API token's owner
   * (ADR 074), under their row-level security. The embedded backend's own key, or
   * SUPABASE_JWT_SECRET on hosted Supabase; without either the seller API answers 503.
   */
  signAccessToken?: (claims: Record<string, unknown>, expiresInSeconds: number) => Promise<string>;
}

export const connectionContext = createContext<SupabaseConnection>();
export const nonceContext = createContext<string>('');
/** The client's address as the HTTP layer sees it (rate limits). */
export const clientAddressContext = createContext<string>('unknown');
export const supabaseContext = createContext<AppSupabaseClient>();
export const viewerContext = createContext<Viewer | null>(null);
/** Signed in but without the two-factor code yet (aal1 with a verified factor): no viewer, only this (ADR 016). */
export const pendingSecondFactorContext = createContext<PendingSecondFactor | null>(null);
/** The one-time link that creates the first administrator (`/setup`); filled by the HTTP layer. */
export const firstAdminContext = createContext<FirstAdminSetup | null>(null);

/**
 * Calling a route's loader or action directly against the contract target (the embedded backend
 * in memory): a router context with the connection, the viewer's own supabase-js client (so
 * row-level security applies) and the viewer, as the root middleware would set them.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { RouterContextProvider } from 'react-router';
import { connectionContext, supabaseContext, viewerContext } from '../../app/context';
import type { FormResult } from '../../app/lib/form-result';
import { ROLE_PERMISSIONS, type Role } from '../../app/lib/permissions';
import { anonClient, userClient } from './clients';
import type { ContractTarget } from './contract-target';

/** The seeded demo accounts (supabase/seed.sql), password `demo-password`. */
export const DEMO_VIEWERS = {
  buyer: { id: '00000000-0000-4000-8000-000000000001', email: 'buyer@demo.test', role: 'buyer' },
  seller: { id: '00000000-0000-4000-8000-000000000002', email: 'seller@demo.test', role: 'seller' },
  admin: { id: '00000000-0000-4000-8000-000000000003', email: 'admin@demo.test', role: 'admin' },
} as const;

export interface TestViewer {
  id: string;
  email: string;
  role: Role;
}

/** A client signed in as the account (password `demo-password` unless given). */
export async function signedInClient(target: ContractTarget, email: string, password = 'demo-password') {
  const { data, error } = await anonClient(target).auth.signInWithPassword({ email, password });
  if (error) throw error;
  return userClient(target, data.session.access_token);
}

/** The router context of a request by `viewer` (null: signed out) through `client`. */
export function routeContext(
  target: ContractTarget,
  viewer: TestViewer | null,
  client: SupabaseClient,
): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(connectionContext, { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey });
  context.set(supabaseContext, client as never);
  context.set(
    viewerContext,
    viewer
      ? {
          id: viewer.id,
          email: viewer.email,
          username: viewer.email.split('@')[0]!,
          avatarUrl: null,
          role: viewer.role,
          permissions: [...ROLE_PERMISSIONS[viewer.role]],
          createdAt: new Date().toISOString(),
        }
      : null,
  );
  return context;
}

/**
 * What a loader or action answered, returned or thrown: its status, the form result of a
 * `data(...)` answer, the Location of a redirect.
 */
export async function routeAnswer(
  promise: Promise<unknown>,
): Promise<{ status: number; result?: FormResult; location?: string }> {
  try {
    const value = (await promise) as { data?: FormResult; init?: { status?: number } } | Response;
    if (value instanceof Response) return { status: value.status, location: value.headers.get('Location') ?? '' };
    return { status: value.init?.status ?? 200, result: value.data };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get('Location') ?? '' };
    const status = (thrown as { init?: { status?: number } }).init?.status;
    if (status) return { status };
    throw thrown;
  }
}

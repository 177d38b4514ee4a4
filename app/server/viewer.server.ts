/**
 * Root middleware: one Supabase client per request, the user verified with the Auth service
 * (never trusted from the cookie alone), the profile loaded, role and permissions derived.
 * Refreshed or cleared session cookies ride on whatever response comes back. A signed-in
 * viewer is marked active in the background every few minutes (presence.server.ts).
 *
 * A verified viewer is remembered per access token for a few seconds, so a burst of requests
 * with one session costs one Auth check and one profile read (docs/decisions/008-shared-reads.md).
 * Sign-out and profile changes forget it at once in this process.
 */
import { isAuthApiError, isAuthRetryableFetchError, type User } from '@supabase/supabase-js';
import type { MiddlewareFunction } from 'react-router';
import {
  clientAddressContext,
  connectionContext,
  pendingSecondFactorContext,
  supabaseContext,
  viewerContext,
} from '~/context';
import { permissionsOf, toRole } from '~/lib/permissions';
import type { Viewer } from '~/lib/viewer';
import { unavailable, unwrap } from '~/server/http-errors.server';
import { touchPresence } from '~/server/presence.server';
import { createSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import { createTtlCache } from '~/server/ttl-cache.server';
import { needsSecondFactor, type PendingSecondFactor } from '~/server/two-factor.server';

export const supabaseMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { client, responseHeaders } = createSupabase(
    request,
    context.get(connectionContext),
    context.get(clientAddressContext),
  );
  context.set(supabaseContext, client);
  const { viewer, pending } = await loadViewer(client);
  context.set(viewerContext, viewer);
  context.set(pendingSecondFactorContext, pending);
  if (viewer) touchPresence(client, viewer.id);
  const response = await next();
  const cookies = responseHeaders.getSetCookie();
  for (const cookie of cookies) response.headers.append('Set-Cookie', cookie);
  // A route's own no-store stays as it is (a download adds no-transform to keep its length).
  const alreadyPrivate = /\bprivate\b.*\bno-store\b/.test(response.headers.get('Cache-Control') ?? '');
  if ((cookies.length > 0 || context.get(viewerContext)) && !alreadyPrivate) {
    response.headers.set('Cache-Control', 'private, no-store');
  }
  return response;
};

/** How long a verified session is trusted without asking the Auth service again. */
const VIEWER_TTL_MS = 10_000;

/**
 * Who the session is: a viewer, or a user who signed in but still owes the two-factor code
 * (treated as signed out everywhere but the code page and sign-out; ADR 016), or nobody.
 */
interface ViewerState {
  viewer: Viewer | null;
  pending: PendingSecondFactor | null;
}

const NOBODY: ViewerState = { viewer: null, pending: null };

const viewers = createTtlCache<ViewerState>({ ttlMs: VIEWER_TTL_MS, maxEntries: 5_000 });

/** After sign-out, a profile or role change: the next request verifies and reloads. */
export function forgetViewer(userId: string): void {
  viewers.forget((_token, state) => (state?.viewer ?? state?.pending)?.id === userId);
}

async function loadViewer(client: AppSupabaseClient): Promise<ViewerState> {
  // The cookie's session (refreshed when it has expired) only names the access token; the
  // Auth service verifies it before anything is trusted.
  const { data: sessionData, error } = await client.auth.getSession();
  // An expired session whose refresh could not reach Auth (supabase-js retries that for up to
  // about 25 s first) is an outage too.
  if (error) throwIfAuthUnavailable(error);
  const accessToken = sessionData.session?.access_token;
  if (!accessToken) return NOBODY;
  return viewers.get(accessToken, () => verifyViewer(client, accessToken));
}

async function verifyViewer(client: AppSupabaseClient, accessToken: string): Promise<ViewerState> {
  const { data: userData, error } = await client.auth.getUser(accessToken);
  if (error) {
    throwIfAuthUnavailable(error);
    return NOBODY; // no session, or a session the Auth service no longer accepts
  }
  const { user } = userData;
  if (needsSecondFactor(accessToken, user)) return { viewer: null, pending: { id: user.id, email: user.email ?? '' } };
  return { viewer: await loadProfile(client, user), pending: null };
}

/** An Auth outage is a 503 page, never a silent sign-out. */
function throwIfAuthUnavailable(error: unknown): void {
  if (isAuthRetryableFetchError(error) || (isAuthApiError(error) && error.status >= 500)) {
    console.error('Auth service unavailable:', error.message);
    unavailable();
  }
}

async function loadProfile(client: AppSupabaseClient, user: User): Promise<Viewer> {
  const profile = unwrap(
    await client
      .from('users')
      .select('username, profile_image_url, user_type, created_at')
      .eq('id', user.id)
      .maybeSingle(),
    'viewer profile',
  );
  const metadata = user.user_metadata as Record<string, unknown>;
  const role = toRole(profile?.user_type);
  return {
    id: user.id,
    email: user.email ?? '',
    username: profile?.username ?? (typeof metadata.username === 'string' ? metadata.username : (user.email ?? 'user')),
    avatarUrl: profile?.profile_image_url ?? null,
    role,
    permissions: [...permissionsOf(role)],
    createdAt: profile?.created_at ?? user.created_at,
  };
}

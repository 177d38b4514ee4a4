import { redirect } from 'react-router';
import { supabaseContext } from '~/context';
import { mapAuthError } from '~/lib/auth-errors';
import { signInHref } from '~/lib/auth-modal';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { twoFactorHref } from '~/lib/two-factor';
import { redirectWithFlash } from '~/server/cookies.server';
import { asksForCode } from '~/server/two-factor.server';
import type { Route } from './+types/callback';

/**
 * Where Google sign-in, email confirmation and password recovery links land: the PKCE code is
 * exchanged for a session (cookies set on this response), then the user goes to `next`.
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const next = safeRedirectPath(url.searchParams.get('next'), '/dashboard');
  const code = url.searchParams.get('code');
  const providerError = url.searchParams.get('error_description') ?? url.searchParams.get('error');
  if (code && !providerError) {
    const { data, error } = await context.get(supabaseContext).auth.exchangeCodeForSession(code);
    if (!error) return redirect(asksForCode(data.user) ? twoFactorHref(next) : next); // ADR 016
    console.error('Code exchange failed:', error.message);
  }
  const message = providerError
    ? mapAuthError(providerError).message
    : 'This sign-in link is invalid or has expired. Please try again.';
  return redirectWithFlash(request, signInHref(), { kind: 'error', message });
}

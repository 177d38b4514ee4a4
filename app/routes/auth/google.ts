import { redirect, redirectDocument } from 'react-router';
import { z } from 'zod';
import { connectionContext, supabaseContext } from '~/context';
import { mapAuthError } from '~/lib/auth-errors';
import { signInHref } from '~/lib/auth-modal';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { googleSignInAvailable } from '~/server/auth-admin.server';
import { GOOGLE_NOT_CONFIGURED_MESSAGE, appOrigin } from '~/server/auth.server';
import { formError, parseForm } from '~/server/forms.server';
import type { Route } from './+types/google';

/** Where to return after signing in; anything unusable falls back to the dashboard below. */
const GoogleSignInSchema = z.object({ redirectTo: z.string().optional().catch(undefined) });

/** Starts Google sign-in with PKCE; the verifier cookie rides on this redirect. */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseForm(await request.formData(), GoogleSignInSchema);
  if (!(await googleSignInAvailable(context.get(connectionContext)))) {
    return formError(submission, { message: GOOGLE_NOT_CONFIGURED_MESSAGE });
  }
  const returnTo = submission.status === 'success' ? submission.value.redirectTo : undefined;
  const next = safeRedirectPath(returnTo, '/dashboard');
  const { data: oauth, error } = await context.get(supabaseContext).auth.signInWithOAuth({
    provider: 'google',
    options: {
      redirectTo: `${appOrigin(request)}/auth/callback?${new URLSearchParams({ next: next === '/' ? '/dashboard' : next })}`,
      queryParams: { access_type: 'offline', prompt: 'consent' },
      skipBrowserRedirect: true,
    },
  });
  if (error || !oauth.url) return formError(submission, { message: mapAuthError(error?.message).message });
  return redirectDocument(oauth.url);
}

export function loader() {
  return redirect(signInHref());
}

import { redirect } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { AuthPage } from '~/components/auth/auth-page';
import { connectionContext, supabaseContext } from '~/context';
import { mapAuthError, SUCCESS_MESSAGES } from '~/lib/auth-errors';
import { errorMeta, pageMeta } from '~/lib/meta';
import { actionOrLoaderHeaders } from '~/lib/route-headers';
import { twoFactorHref } from '~/lib/two-factor';
import { SignInSchema, authErrorSummary } from '~/schemas/auth';
import { demoMailNote } from '~/server/auth-admin.server';
import { accountKey, authRateLimited, redirectIfSignedIn, signedInRedirect } from '~/server/auth.server';
import { formError, parseForm } from '~/server/forms.server';
import { formWindows, signInFailuresByAccount } from '~/server/rate-limit.server';
import { asksForCode } from '~/server/two-factor.server';
import type { Route } from './+types/sign-in';

export function loader(args: Route.LoaderArgs) {
  redirectIfSignedIn(args);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseForm(await request.formData(), SignInSchema);
  const limited = await authRateLimited(context, submission);
  if (limited) return limited;
  if (submission.status !== 'success') return formError(submission, authErrorSummary(submission.error));
  const { email, password, redirectTo } = submission.value;

  // After repeated failures on this account from anywhere, each attempt waits longer; the owner
  // with the right password is slowed, never refused.
  const windows = formWindows(context);
  await signInFailuresByAccount.wait(windows, accountKey(email));
  const { data, error } = await context.get(supabaseContext).auth.signInWithPassword({ email, password });
  if (error) {
    if (error.code === 'invalid_credentials') await signInFailuresByAccount.fail(windows, accountKey(email));
    const mapped = mapAuthError(error.message);
    if (!error.status || error.status >= 500) console.error('Sign-in failed:', error.message);
    return formError(submission, {
      message: mapped.message,
      hints: mapped.hints,
      note: mapped.checkEmail ? await demoMailNote(context.get(connectionContext)) : undefined,
      status: error.status === 429 ? 429 : 400,
    });
  }
  if (asksForCode(data.user)) return redirect(twoFactorHref(redirectTo)); // aal1 until the code (ADR 016)
  return signedInRedirect(request, redirectTo, SUCCESS_MESSAGES.signedIn);
}

export const headers = actionOrLoaderHeaders;

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Sign In', 'Sign in to AgentMarket or create an account to buy and sell AI agents.');

export default function SignInPage() {
  return <AuthPage mode="sign-in" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import { GeneralErrorBoundary } from '~/components/error-boundary';
import { AuthPage } from '~/components/auth/auth-page';
import { connectionContext, supabaseContext } from '~/context';
import { mapAuthError } from '~/lib/auth-errors';
import { errorMeta, pageMeta } from '~/lib/meta';
import { actionOrLoaderHeaders } from '~/lib/route-headers';
import { EmailOnlySchema, authErrorSummary } from '~/schemas/auth';
import { demoMailNote } from '~/server/auth-admin.server';
import { RESET_LINK_SENT_MESSAGE, appOrigin, authRateLimited, redirectIfSignedIn } from '~/server/auth.server';
import { formError, formSuccess, parseForm } from '~/server/forms.server';
import type { Route } from './+types/forgot-password';

export function loader(args: Route.LoaderArgs) {
  redirectIfSignedIn(args);
  return null;
}

/** Sends a recovery link. The answer is the same whether or not the account exists. */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseForm(await request.formData(), EmailOnlySchema);
  const limited = await authRateLimited(context, submission);
  if (limited) return limited;
  if (submission.status !== 'success') return formError(submission, authErrorSummary(submission.error));
  const { error } = await context.get(supabaseContext).auth.resetPasswordForEmail(submission.value.email, {
    redirectTo: `${appOrigin(request)}/auth/callback?${new URLSearchParams({ next: '/auth/reset-password' })}`,
  });
  if (error && error.status !== 429) console.error('Password recovery failed:', error.message);
  if (error?.status === 429) {
    return formError(submission, { message: mapAuthError('Email rate limit exceeded').message, status: 429 });
  }
  return formSuccess(submission, RESET_LINK_SENT_MESSAGE, { note: await demoMailNote(context.get(connectionContext)) });
}

export const headers = actionOrLoaderHeaders;

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Reset your password', 'Sign in to AgentMarket or create an account to buy and sell AI agents.');

export default function ForgotPasswordPage() {
  return <AuthPage mode="forgot-password" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import { GeneralErrorBoundary } from '~/components/error-boundary';
import { AuthPage } from '~/components/auth/auth-page';
import { connectionContext, supabaseContext } from '~/context';
import { mapAuthError, SUCCESS_MESSAGES, UNEXPECTED_ERROR } from '~/lib/auth-errors';
import { errorMeta, pageMeta } from '~/lib/meta';
import { actionOrLoaderHeaders } from '~/lib/route-headers';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { SignUpSchema, authErrorSummary } from '~/schemas/auth';
import { PLATFORM_SETTINGS_MESSAGES } from '~/schemas/platform-settings';
import { PROFILE_MESSAGES } from '~/schemas/profile';
import { demoMailNote } from '~/server/auth-admin.server';
import { appOrigin, authRateLimited, redirectIfSignedIn, signedInRedirect } from '~/server/auth.server';
import { formError, formSuccess, parseForm } from '~/server/forms.server';
import { platformSettings } from '~/server/platform-settings.server';
import type { Route } from './+types/sign-up';

/**
 * Every sign-up makes a buyer (the database ignores an account type in the metadata). Who chose
 * to sell goes on to /become-seller, where accepting the seller terms makes the seller.
 */
const SELLER_SIGN_UP_NEXT = '/become-seller#become-seller-form';

export function loader(args: Route.LoaderArgs) {
  redirectIfSignedIn(args);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseForm(await request.formData(), SignUpSchema);
  const limited = await authRateLimited(context, submission);
  if (limited) return limited;
  if (submission.status !== 'success') return formError(submission, authErrorSummary(submission.error));
  const { email, password, username, accountType, redirectTo } = submission.value;
  const supabase = context.get(supabaseContext);
  // Closed by an admin (System Settings): the database refuses new accounts too (ADR 065).
  if (!(await platformSettings(context)).signupsOpen)
    return formError(submission, { message: PLATFORM_SETTINGS_MESSAGES.signUpClosed, status: 403 });

  const { data: available, error: lookupError } = await supabase.rpc('is_username_available', { name: username });
  if (lookupError) {
    console.error('Username check failed:', lookupError.message);
    return formError(submission, { message: UNEXPECTED_ERROR, status: 503 });
  }
  if (available === false) return formError(submission, { message: PROFILE_MESSAGES.usernameTaken, status: 409 });

  const next = accountType === 'seller' ? SELLER_SIGN_UP_NEXT : safeRedirectPath(redirectTo, '/dashboard');
  const { data: result, error } = await supabase.auth.signUp({
    email,
    password,
    options: {
      data: { username },
      emailRedirectTo: `${appOrigin(request)}/auth/callback?${new URLSearchParams({ next })}`,
    },
  });
  // An address that has an account gets the answer hosted Supabase gives with confirmations on
  // (a confirmation to look for, no session): the form does not tell who has an account here.
  const confirmationSent = async () =>
    formSuccess(submission, SUCCESS_MESSAGES.signedUpConfirm, {
      note: await demoMailNote(context.get(connectionContext)),
    });
  if (error && isExistingAccount(error)) return confirmationSent();
  if (error?.code === 'signup_disabled')
    return formError(submission, { message: PLATFORM_SETTINGS_MESSAGES.signUpClosed, status: 403 });
  if (error) {
    const mapped = mapAuthError(error.message);
    if (!error.status || error.status >= 500) console.error('Sign-up failed:', error.message);
    return formError(submission, {
      message: mapped.message,
      hints: mapped.hints,
      status: error.status === 429 ? 429 : 400,
    });
  }
  if (!result.session) return confirmationSent();
  return signedInRedirect(request, next, SUCCESS_MESSAGES.signedIn);
}

/** GoTrue's answer to a sign-up for a confirmed address when confirmations are off. */
const isExistingAccount = (error: { code?: string; message: string }) =>
  error.code === 'user_already_exists' || error.message.includes('already registered');

export const headers = actionOrLoaderHeaders;

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Create Account', 'Sign in to AgentMarket or create an account to buy and sell AI agents.');

export default function SignUpPage() {
  return <AuthPage mode="sign-up" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import { Form, redirect, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { buttonClass } from '~/components/ui/button';
import { TotpCodeField } from '~/components/profile/two-factor-panel';
import { FormMessage } from '~/components/ui/field';
import { pendingSecondFactorContext, supabaseContext, viewerContext } from '~/context';
import { signInHref } from '~/lib/auth-modal';
import { formNotice } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { TWO_FACTOR_MESSAGES } from '~/lib/two-factor';
import { TwoFactorSignInSchema } from '~/schemas/two-factor';
import { signedInRedirect } from '~/server/auth.server';
import { formError, parseForm } from '~/server/forms.server';
import { unavailable } from '~/server/http-errors.server';
import { formWindows } from '~/server/rate-limit.server';
import { checkCode, refusal, verifiedTotpFactor } from '~/server/two-factor.server';
import { forgetViewer } from '~/server/viewer.server';
import type { Route } from './+types/two-factor';
import { SubmitButton } from '~/components/ui/submit-button';
import { FormCard } from '~/components/ui/form-card';

/**
 * The code page of two-factor sign-in (ADR 016): after the password or Google, a session is
 * aal1 and the app treats it as signed out until a code from the authenticator app raises it to
 * aal2. Fully signed-in visitors go on; visitors without any session go to sign in.
 */
function pendingOrElsewhere({ url, context }: { url: URL; context: Route.LoaderArgs['context'] }) {
  const target = safeRedirectPath(url.searchParams.get('redirectTo'), '/dashboard');
  if (context.get(viewerContext)) throw redirect(target);
  const pending = context.get(pendingSecondFactorContext);
  if (!pending) throw redirect(signInHref({ returnTo: target }));
  return { pending, target };
}

export function loader(args: Route.LoaderArgs) {
  const { pending, target } = pendingOrElsewhere(args);
  return { email: pending.email, redirectTo: target };
}

export async function action(args: Route.ActionArgs) {
  const { pending, target } = pendingOrElsewhere(args);
  const { request, context } = args;
  const submission = parseForm(await request.formData(), TwoFactorSignInSchema);
  if (submission.status !== 'success') return formError(submission);
  const client = context.get(supabaseContext);
  const factor = await verifiedTotpFactor(client).catch((error: Error) => {
    console.error('Two-factor factors unavailable:', error.message);
    return unavailable();
  });
  // No verified factor any more (removed meanwhile): nothing is owed, the next request decides.
  if (!factor) throw redirect(target);
  const check = await checkCode(client, formWindows(context), pending.id, factor.id, submission.value.code);
  if (!check.ok) return refusal(submission, check);
  forgetViewer(pending.id);
  return signedInRedirect(request, submission.value.redirectTo ?? target, TWO_FACTOR_MESSAGES.verified);
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Two-factor authentication', 'Enter the code from your authenticator app to sign in.');

export default function TwoFactorSignInPage({ loaderData, actionData }: Route.ComponentProps) {
  const notice = formNotice(actionData);
  const navigation = useNavigation();
  const isChecking = navigation.state === 'submitting' && navigation.formAction?.startsWith('/auth/two-factor');
  return (
    <FormCard
      title="Two-factor authentication"
      intro={
        <>
          Open your authenticator app and enter the 6-digit code for <strong>{loaderData.email}</strong>.
        </>
      }
    >
      <Form method="post" className="space-y-4">
        {notice ? <FormMessage {...notice} /> : null}
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <TotpCodeField invalid={notice?.kind === 'error'} />
        <SubmitButton pending={isChecking} pendingLabel="Verifying..." size="lg" wide>
          Verify
        </SubmitButton>
      </Form>
      <Form method="post" action="/auth/sign-out" className="mt-4 text-center">
        <button type="submit" className={buttonClass('ghost', 'sm')}>
          Cancel and sign out
        </button>
      </Form>
    </FormCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

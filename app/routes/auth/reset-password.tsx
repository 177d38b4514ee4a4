import { GeneralErrorBoundary } from '~/components/error-boundary';
import { Form, useNavigation } from 'react-router';
import { FormMessage } from '~/components/ui/field';
import { NewPasswordFields } from '~/components/ui/new-password-fields';
import { supabaseContext } from '~/context';
import { mapAuthError } from '~/lib/auth-errors';
import { formNotice } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { NewPasswordSchema, firstMessage } from '~/schemas/auth';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireUser } from '~/server/guards.server';
import { sessionMethods } from '~/server/two-factor.server';
import type { Route } from './+types/reset-password';
import { SubmitButton } from '~/components/ui/submit-button';
import { FormCard } from '~/components/ui/form-card';

/**
 * Amr methods of a session started from the mailbox: the password-reset link (`recovery` by PKCE,
 * `otp` for a code or an implicit link) or a magic link. Only such a session, GoTrue's "recovery
 * session", sets a new password here without the old one; everyone else changes it under
 * Security on the profile, with the current password.
 */
const RECOVERY_METHODS: ReadonlySet<string> = new Set(['recovery', 'otp', 'magiclink']);

const NOT_A_RECOVERY_SESSION_MESSAGE =
  'This page sets a new password only from the link in a password reset email. To change your password, use Security in your profile.';

async function requireRecoverySession(args: Route.LoaderArgs | Route.ActionArgs) {
  requireUser(args); // the viewer middleware has had this session's access token accepted
  const { data } = await args.context.get(supabaseContext).auth.getSession();
  const methods = sessionMethods(data.session?.access_token ?? '');
  if (methods.some((method) => RECOVERY_METHODS.has(method))) return;
  throw await redirectWithFlash(args.request, '/profile?tab=security', {
    kind: 'error',
    message: NOT_A_RECOVERY_SESSION_MESSAGE,
  });
}

export async function loader(args: Route.LoaderArgs) {
  await requireRecoverySession(args);
  return null;
}

export async function action(args: Route.ActionArgs) {
  await requireRecoverySession(args);
  const { request, context } = args;
  const submission = parseForm(await request.formData(), NewPasswordSchema);
  if (submission.status !== 'success') return formError(submission, { summarize: firstMessage });
  const { error } = await context.get(supabaseContext).auth.updateUser({ password: submission.value.password });
  if (error) {
    return formError(submission, {
      message: mapAuthError(error.message).message,
      status: error.status === 422 ? 422 : 400,
    });
  }
  return redirectWithFlash(request, '/dashboard', { kind: 'success', message: 'Your password has been updated.' });
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Set a new password', 'Choose a new password for your AgentMarket account.');

export default function ResetPasswordPage({ actionData }: Route.ComponentProps) {
  const notice = formNotice(actionData);
  const isSaving = useNavigation().state === 'submitting';
  return (
    <FormCard title="Set a new password">
      <Form method="post" className="space-y-4">
        {notice ? <FormMessage {...notice} /> : null}
        <NewPasswordFields result={actionData} />
        <SubmitButton pending={isSaving} pendingLabel="Saving..." size="lg" wide>
          Update password
        </SubmitButton>
      </Form>
    </FormCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

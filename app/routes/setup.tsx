import { GeneralErrorBoundary } from '~/components/error-boundary';
import { data, Form, useNavigation } from 'react-router';
import { EmailField } from '~/components/auth/auth-form';
import { Field, FormMessage } from '~/components/ui/field';
import { NewPasswordFields } from '~/components/ui/new-password-fields';
import { connectionContext, firstAdminContext, supabaseContext } from '~/context';
import { mapAuthError, UNEXPECTED_ERROR } from '~/lib/auth-errors';
import { MIN_USERNAME_LENGTH } from '~/lib/auth-rules';
import { fieldError, fieldValue, formNotice } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { newPasswordFields, passwordsMatch, PASSWORDS_DIFFER, SignUpSchema, firstMessage } from '~/schemas/auth';
import { PROFILE_MESSAGES } from '~/schemas/profile';
import { redirectWithFlash } from '~/server/cookies.server';
import { adminExists } from '~/server/first-admin.server';
import { formError, parseForm } from '~/server/forms.server';
import { notFound } from '~/server/http-errors.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/setup';
import { SubmitButton } from '~/components/ui/submit-button';
import { FormCard } from '~/components/ui/form-card';

/**
 * `/setup?token=…`: creates the first administrator of a deployment through the one-time link
 * the server prints at start-up (app/server/first-admin.server.ts). Without the right token, or
 * once an administrator exists, the page does not exist (404), so it reveals nothing.
 */

/** The sign-up rules for email, username and password, plus the confirmation. */
const FirstAdminSchema = SignUpSchema.pick({ email: true, username: true })
  .extend(newPasswordFields)
  .refine(passwordsMatch, PASSWORDS_DIFFER);

const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists. Please use a different email address.';

/**
 * The page's URL holds the one-time token: never cached, never sent to another site as a Referer,
 * whatever the answer (the form, its errors, a 404). `same-origin`, not `no-referrer`: under
 * `no-referrer` a browser posts the form without JavaScript with `Origin: null`, which the
 * cross-site check refuses.
 */
const SETUP_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' };
export const headers: Route.HeadersFunction = () => SETUP_HEADERS;

export async function loader({ request, context }: Route.LoaderArgs) {
  const setup = context.get(firstAdminContext);
  const token = new URL(request.url).searchParams.get('token');
  if (!setup?.matches(token)) notFound();
  if (await adminExists(context.get(connectionContext))) {
    setup.spend();
    notFound();
  }
  return data({ token: token ?? '' }, { headers: SETUP_HEADERS });
}

export async function action({ request, context }: Route.ActionArgs) {
  const setup = context.get(firstAdminContext);
  const formData = await request.formData();
  const token = formData.get('token');
  if (!setup?.matches(token)) notFound();
  const submission = parseForm(formData, FirstAdminSchema);
  if (submission.status !== 'success') return formError(submission, { summarize: firstMessage });
  const fail = (message: string, status: number) => formError(submission, { message, status });
  // One attempt at a time: two forms posted at once cannot make two administrators.
  if (!setup.claim(token)) return fail('Another attempt is under way. Please try again.', 409);
  let done = false;
  try {
    const connection = context.get(connectionContext);
    if (await adminExists(connection)) {
      setup.spend();
      done = true;
      notFound();
    }
    const { email, username, password } = submission.value;
    const service = createServiceSupabase(connection);
    const { data: available, error: lookupError } = await service.rpc('is_username_available', { name: username });
    if (lookupError) return fail(UNEXPECTED_ERROR, 503);
    if (available === false) return fail(PROFILE_MESSAGES.usernameTaken, 409);

    const { data: created, error } = await service.auth.admin.createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: { username },
    });
    if (error || !created.user) {
      if (error?.code === 'email_exists') return fail(EMAIL_TAKEN_MESSAGE, 409);
      const status = error?.status && error.status >= 400 && error.status < 500 ? 400 : 503;
      return fail(mapAuthError(error?.message).message, status);
    }
    // The sign-up trigger never makes an administrator from metadata; the service role does.
    const { error: promoteError } = await service
      .from('users')
      .update({ user_type: 'admin' })
      .eq('id', created.user.id);
    if (promoteError) {
      console.error('Could not make the first administrator:', promoteError.message);
      await service.auth.admin.deleteUser(created.user.id);
      return fail(UNEXPECTED_ERROR, 503);
    }
    setup.spend();
    done = true;
    console.log(`First administrator created: ${email}. The setup link no longer works.`);

    const { error: signInError } = await context.get(supabaseContext).auth.signInWithPassword({ email, password });
    const message = 'Your administrator account is ready.';
    if (signInError) {
      return redirectWithFlash(request, '/auth/sign-in', { kind: 'success', message: `${message} Please sign in.` });
    }
    return redirectWithFlash(request, '/dashboard', { kind: 'success', message });
  } finally {
    if (!done) setup.release();
  }
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Create the administrator account', 'Set up the first administrator of AgentMarket.');

export default function SetupPage({ loaderData, actionData }: Route.ComponentProps) {
  const notice = formNotice(actionData);
  const invalid = (name: string) => (fieldError(actionData, name) ? true : undefined);
  const isSaving = useNavigation().state === 'submitting';
  return (
    <FormCard
      title="Create the administrator account"
      intro={
        <>
          This marketplace has no administrator yet. The account you create here gets full access; this link then stops
          working.
        </>
      }
    >
      <Form method="post" className="space-y-4">
        <input type="hidden" name="token" value={loaderData.token} />
        {notice ? <FormMessage {...notice} /> : null}
        <EmailField defaultValue={fieldValue(actionData, 'email')} invalid={invalid('email')} />
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          required
          minLength={MIN_USERNAME_LENGTH}
          maxLength={30}
          defaultValue={fieldValue(actionData, 'username')}
          aria-invalid={invalid('username')}
        />
        <NewPasswordFields result={actionData} label="Password" confirmLabel="Confirm password" />
        <SubmitButton pending={isSaving} pendingLabel="Creating account..." size="lg" wide>
          Create administrator account
        </SubmitButton>
      </Form>
    </FormCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import { GeneralErrorBoundary } from '~/components/error-boundary';
import { Form, useActionData, useNavigation } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { Field, FormMessage, Spinner } from '~/components/ui/field';
import type { AuthActionResult } from '~/lib/auth-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { MIN_PASSWORD_LENGTH } from '~/lib/auth-rules';
import { setNewPassword } from '~/server/auth.server';
import { requireUser } from '~/server/guards.server';
import type { Route } from './+types/reset-password';

export function loader(args: Route.LoaderArgs) {
  requireUser(args);
  return null;
}

export function action(args: Route.ActionArgs) {
  requireUser(args);
  return setNewPassword(args);
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Set a new password', 'Choose a new password for your AgentMarket account.');

export default function ResetPasswordPage() {
  const result = useActionData<AuthActionResult>();
  const isSaving = useNavigation().state === 'submitting';
  return (
    <div className="container-page flex justify-center py-16">
      <section
        aria-labelledby="reset-title"
        className="w-full max-w-md rounded-2xl border border-slate-200 p-6 dark:border-slate-700"
      >
        <h1 id="reset-title" className="mb-5 text-2xl font-bold">
          Set a new password
        </h1>
        <Form method="post" className="space-y-4">
          {result ? <FormMessage kind={result.status} message={result.message} /> : null}
          <Field
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            hint="Password must be at least 6 characters long"
          />
          <Field
            label="Confirm new password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
          />
          <button type="submit" className={buttonClass('primary', 'lg', 'w-full')} disabled={isSaving}>
            {isSaving ? <Spinner /> : null}
            {isSaving ? 'Saving...' : 'Update password'}
          </button>
        </Form>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

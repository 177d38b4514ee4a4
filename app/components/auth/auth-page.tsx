import { Form, useActionData, useNavigation, useSearchParams } from 'react-router';
import { AUTH_TITLES } from '~/components/auth/auth-dialog';
import { AuthForm } from '~/components/auth/auth-form';
import type { AuthMode } from '~/lib/auth-modal';
import { fieldValue, type FormResult } from '~/lib/form-result';
import { FormCard } from '~/components/ui/form-card';

const PAGE_PATHS: Record<AuthMode, string> = {
  'sign-in': '/auth/sign-in',
  'sign-up': '/auth/sign-up',
  'forgot-password': '/auth/forgot-password',
};

/**
 * The full-page form behind the dialog: where a form posted without JavaScript lands, so an
 * error is shown with everything the user typed (except the password).
 */
export function AuthPage({ mode }: { mode: AuthMode }) {
  const result = useActionData<FormResult>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const submitting =
    navigation.state !== 'idle' && navigation.formMethod === 'POST' ? navigation.formAction : undefined;
  const pending = submitting ? (submitting.startsWith('/auth/google') ? 'google' : 'password') : null;
  const redirectTo = fieldValue(result, 'redirectTo') ?? searchParams.get('redirectTo') ?? '/dashboard';
  const hrefFor = (next: AuthMode) => `${PAGE_PATHS[next]}?${new URLSearchParams({ redirectTo })}`;
  return (
    <FormCard title={AUTH_TITLES[mode]}>
      <AuthForm mode={mode} result={result} pending={pending} redirectTo={redirectTo} hrefFor={hrefFor} Form={Form} />
    </FormCard>
  );
}

import { useFetcher, useLocation } from 'react-router';
import { AuthForm } from '~/components/auth/auth-form';
import { ModalDialog } from '~/components/ui/modal-dialog';
import { authModalHref, type AuthMode } from '~/lib/auth-modal';
import type { FormResult } from '~/lib/form-result';

export const AUTH_TITLES: Record<AuthMode, string> = {
  'sign-in': 'Welcome back',
  'sign-up': 'Create your account',
  'forgot-password': 'Reset your password',
};

/**
 * The sign-in dialog, open whenever the URL has `?auth=…` and nobody is signed in (so it works
 * without JavaScript). With JavaScript its forms post through fetchers, and it is modal (ModalDialog).
 */
export function AuthDialog({ mode }: { mode: AuthMode }) {
  const location = useLocation();
  const closeHref = authModalHref(location, null);
  const redirectTo = new URLSearchParams(location.search).get('redirectTo') ?? closeHref;
  const accountType = new URLSearchParams(location.search).get('accountType') === 'seller' ? 'seller' : 'buyer';

  const fetcher = useFetcher<FormResult>({ key: `auth-${mode}` });
  const pending =
    fetcher.state === 'idle' ? null : fetcher.formAction?.startsWith('/auth/google') ? 'google' : 'password';

  return (
    <ModalDialog titleId="auth-dialog-title" closeHref={closeHref}>
      <h2 id="auth-dialog-title" className="mb-5 pr-10 text-2xl font-bold">
        {AUTH_TITLES[mode]}
      </h2>
      <AuthForm
        key={mode}
        mode={mode}
        result={fetcher.data}
        pending={pending}
        redirectTo={redirectTo}
        hrefFor={(next) => authModalHref(location, next)}
        Form={fetcher.Form}
        defaultAccountType={accountType}
      />
    </ModalDialog>
  );
}

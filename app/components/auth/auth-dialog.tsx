import { useFetcher, useLocation } from 'react-router';
import { AuthForm } from '~/components/auth/auth-form';
import { UrlDialog } from '~/components/ui/url-dialog';
import { authModalHref, type AuthMode } from '~/lib/auth-modal';
import type { FormResult } from '~/lib/form-result';

export const AUTH_TITLES: Record<AuthMode, string> = {
  'sign-in': 'Welcome back',
  'sign-up': 'Create your account',
  'forgot-password': 'Reset your password',
};

/**
 * The sign-in dialog, open whenever the URL has `?auth=…` and nobody is signed in (so it works
 * without JavaScript). With JavaScript its forms post through fetchers, and it is modal: focus
 * starts in its first field, stays inside, Escape closes it, focus returns to the opener (UrlDialog).
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
    <UrlDialog title={AUTH_TITLES[mode]} titleId="auth-dialog-title" closeHref={closeHref} initialFocus="first-field">
      <div className="mt-5">
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
      </div>
    </UrlDialog>
  );
}

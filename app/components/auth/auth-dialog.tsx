import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useFetcher, useLocation, useNavigate } from 'react-router';
import { AuthForm } from '~/components/auth/auth-form';
import { authModalHref, type AuthMode } from '~/lib/auth-modal';
import type { FormResult } from '~/lib/form-result';

export const AUTH_TITLES: Record<AuthMode, string> = {
  'sign-in': 'Welcome back',
  'sign-up': 'Create your account',
  'forgot-password': 'Reset your password',
};

/**
 * The sign-in dialog, open whenever the URL has `?auth=…` and nobody is signed in (so it works
 * without JavaScript). With JavaScript its forms post through fetchers and it closes on Escape.
 */
export function AuthDialog({ mode }: { mode: AuthMode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const closeHref = authModalHref(location, null);
  const redirectTo = new URLSearchParams(location.search).get('redirectTo') ?? closeHref;
  const accountType = new URLSearchParams(location.search).get('accountType') === 'seller' ? 'seller' : 'buyer';

  const fetcher = useFetcher<FormResult>({ key: `auth-${mode}` });
  const pending =
    fetcher.state === 'idle' ? null : fetcher.formAction?.startsWith('/auth/google') ? 'google' : 'password';
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    panel.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') navigate(closeHref, { preventScrollReset: true });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [closeHref, navigate]);

  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-slate-950/60 p-4 sm:items-center">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby="auth-dialog-title"
        tabIndex={-1}
        className="relative w-full max-w-md rounded-2xl bg-white p-6 shadow-xl outline-none dark:bg-slate-900"
      >
        <Link
          to={closeHref}
          preventScrollReset
          className="absolute top-3 right-3 flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
          aria-label="Close"
        >
          <X aria-hidden="true" className="size-5" />
        </Link>
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
      </div>
    </div>
  );
}

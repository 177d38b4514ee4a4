import { useEffect, useState, type ComponentType, type FormEvent } from 'react';
import { Link, useRouteLoaderData, type FetcherFormProps } from 'react-router';
import { Field, FormMessage, Spinner } from '~/components/ui/field';
import { buttonClass } from '~/components/ui/button';
import type { AuthMode } from '~/lib/auth-modal';
import { MIN_PASSWORD_LENGTH, USERNAME_HINT, USERNAME_INPUT } from '~/lib/auth-rules';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import type * as FormsModule from '~/lib/forms';
import type * as AuthSchemaModule from '~/schemas/auth';
import type { loader as rootLoader } from '~/root';

/** `<Form>` for a page, `fetcher.Form` inside the dialog. */
type FormComponent = ComponentType<FetcherFormProps>;

const ACTIONS: Record<AuthMode, string> = {
  'sign-in': '/auth/sign-in',
  'sign-up': '/auth/sign-up',
  'forgot-password': '/auth/forgot-password',
};

type ClientValidation = typeof AuthSchemaModule & typeof FormsModule;

/**
 * The zod schemas and Conform's parser load after the page does, so neither is in every page's
 * first download (the dialog lives in the root layout). Until they arrive the server validates
 * alone, with the same messages.
 */
function useClientValidation(): ClientValidation | null {
  const [modules, setModules] = useState<ClientValidation | null>(null);
  useEffect(() => {
    let active = true;
    Promise.all([import('~/schemas/auth'), import('~/lib/forms')]).then(
      ([schemas, forms]) => active && setModules(() => ({ ...schemas, ...forms })),
    );
    return () => {
      active = false;
    };
  }, []);
  return modules;
}

export interface AuthFormProps {
  mode: AuthMode;
  result: FormResult | undefined;
  /** The action being submitted right now, if any (`google` or the mode's own action). */
  pending: 'google' | 'password' | null;
  redirectTo: string;
  hrefFor: (mode: AuthMode) => string;
  Form: FormComponent;
  /** Prefilled account type (e.g. from "Start selling"). */
  defaultAccountType?: 'buyer' | 'seller';
}

/** The account's email address, as the auth forms and /setup ask for it. */
export function EmailField({ defaultValue, invalid }: { defaultValue: string | undefined; invalid: true | undefined }) {
  return (
    <Field
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      required
      defaultValue={defaultValue}
      aria-invalid={invalid}
    />
  );
}

/**
 * The sign-in / create-account / forgot-password form (docs/product.md, "Signing in"). The server validates with the
 * same schemas; with JavaScript the browser checks first and shows the same messages in place.
 */
export function AuthForm({ mode, result, pending, redirectTo, hrefFor, Form, defaultAccountType }: AuthFormProps) {
  // What the browser's own check found on the last submit, until the next one passes it.
  const [clientCheck, setClientCheck] = useState<{ message: string; hints?: string[]; fields: string[] } | null>(null);
  const message = clientCheck
    ? { kind: 'error' as const, message: clientCheck.message, hints: clientCheck.hints }
    : formNotice(result);
  const invalid = (name: string) =>
    (clientCheck ? clientCheck.fields.includes(name) : fieldError(result, name)) ? true : undefined;
  const isBusy = pending !== null;
  const validation = useClientValidation();
  // Shown only when the Auth service offers Google (a configured client, or the development stand-in).
  const google = useRouteLoaderData<typeof rootLoader>('root')?.googleSignIn ?? false;

  function validate(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === 'google' || !validation) return;
    const schema = {
      'sign-in': validation.SignInSchema,
      'sign-up': validation.SignUpSchema,
      'forgot-password': validation.EmailOnlySchema,
    }[mode];
    // The same parse as the server's action, so the same message.
    const submission = validation.parseFields(new FormData(event.currentTarget), schema);
    if (submission.status === 'success') {
      setClientCheck(null);
    } else {
      event.preventDefault();
      setClientCheck({ ...validation.authErrorSummary(submission.error), fields: Object.keys(submission.error ?? {}) });
    }
  }

  return (
    <div className="space-y-5">
      {mode !== 'forgot-password' && google ? (
        <>
          <Form method="post" action="/auth/google">
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button
              type="submit"
              name="intent"
              value="google"
              className={buttonClass('secondary', 'lg', 'w-full')}
              disabled={isBusy}
            >
              {pending === 'google' ? (
                <>
                  <Spinner /> Redirecting...
                </>
              ) : (
                <>
                  <GoogleLogo /> Continue with Google
                </>
              )}
            </button>
          </Form>
          <div className="flex items-center gap-3 text-xs text-slate-600 uppercase dark:text-slate-400">
            <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" /> or{' '}
            <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
          </div>
        </>
      ) : mode === 'forgot-password' ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Enter the email address of your account and we&apos;ll send you a link to set a new password.
        </p>
      ) : null}

      <Form method="post" action={ACTIONS[mode]} noValidate onSubmit={validate} className="space-y-4">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {message ? <FormMessage {...message} /> : null}
        {mode === 'sign-up' ? (
          <Field
            label="Username"
            name="username"
            autoComplete="username"
            required
            {...USERNAME_INPUT}
            hint={USERNAME_HINT}
            defaultValue={fieldValue(result, 'username')}
            aria-invalid={invalid('username')}
          />
        ) : null}
        <EmailField defaultValue={fieldValue(result, 'email')} invalid={invalid('email')} />
        {mode !== 'forgot-password' ? (
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
            required
            minLength={MIN_PASSWORD_LENGTH}
            hint={mode === 'sign-up' ? 'Password must be at least 6 characters long' : undefined}
            aria-invalid={invalid('password')}
          />
        ) : null}
        {mode === 'sign-up' ? (
          <AccountTypeChoice defaultValue={fieldValue(result, 'accountType') ?? defaultAccountType ?? 'buyer'} />
        ) : null}
        {mode === 'sign-in' ? (
          <p className="text-right text-sm">
            <Link
              to={hrefFor('forgot-password')}
              className="font-medium text-brand-700 hover:underline dark:text-brand-300"
              preventScrollReset
            >
              Forgot your password
            </Link>
          </p>
        ) : null}
        <button type="submit" className={buttonClass('primary', 'lg', 'w-full')} disabled={isBusy}>
          {pending === 'password' ? <Spinner /> : null}
          {SUBMIT_LABELS[mode][pending === 'password' ? 1 : 0]}
        </button>
      </Form>

      <p className="text-center text-sm text-slate-700 dark:text-slate-300">
        {mode === 'sign-up'
          ? 'Already have an account? '
          : mode === 'sign-in'
            ? "Don't have an account? "
            : 'Remembered it? '}
        <Link
          to={hrefFor(mode === 'sign-in' ? 'sign-up' : 'sign-in')}
          className="font-medium text-brand-700 hover:underline dark:text-brand-300"
          preventScrollReset
        >
          {mode === 'sign-in' ? 'Create an account' : 'Sign in'}
        </Link>
      </p>
    </div>
  );
}

const SUBMIT_LABELS: Record<AuthMode, [string, string]> = {
  'sign-in': ['Sign In', 'Signing In...'],
  'sign-up': ['Create Account', 'Creating Account...'],
  'forgot-password': ['Send reset link', 'Sending...'],
};

function AccountTypeChoice({ defaultValue }: { defaultValue: string }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium">Account type</legend>
      <div className="mt-2 grid grid-cols-2 gap-3">
        {(
          [
            ['buyer', 'Buyer', 'Browse and buy agents'],
            ['seller', 'Seller', 'Sell your own agents'],
          ] as const
        ).map(([value, label, description]) => (
          <label
            key={value}
            className="flex cursor-pointer flex-col rounded-lg border border-slate-300 p-3 has-checked:border-brand-600 has-checked:bg-brand-50 dark:border-slate-600 dark:has-checked:bg-slate-800"
          >
            <span className="flex items-center gap-2 text-sm font-medium">
              <input
                type="radio"
                name="accountType"
                value={value}
                defaultChecked={defaultValue === value}
                className="accent-brand-600"
              />
              {label}
            </span>
            <span className="mt-1 text-xs text-slate-600 dark:text-slate-400">{description}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function GoogleLogo() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5">
      <path
        fill="#EA4335"
        d="M12 10.2v3.9h5.5c-.2 1.3-1.6 3.9-5.5 3.9-3.3 0-6-2.7-6-6.1s2.7-6.1 6-6.1c1.9 0 3.1.8 3.8 1.5l2.6-2.5C16.8 3.3 14.6 2.3 12 2.3 6.6 2.3 2.3 6.6 2.3 12s4.3 9.7 9.7 9.7c5.6 0 9.3-3.9 9.3-9.5 0-.6-.1-1.1-.2-1.6H12z"
      />
    </svg>
  );
}

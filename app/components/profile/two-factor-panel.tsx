/**
 * Two-factor authentication (TOTP) on the Security tab and on `/profile/two-factor`, where it is
 * set up and turned off (ADR 016). Every step is a POST form: it works without JavaScript.
 */
import { Form, Link, useNavigation } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { Field, FormMessage } from '~/components/ui/field';
import { formNotice, type FormResult } from '~/lib/form-result';
import type { QrCode, TotpSetup } from '~/server/two-factor.server';
import { SubmitButton } from '~/components/ui/submit-button';

export const TWO_FACTOR_SETTINGS_PATH = '/profile/two-factor';

const ROW =
  'flex flex-wrap items-start justify-between gap-4 rounded-xl border border-slate-200 p-5 dark:border-slate-800';

function useSubmitting(intent: string): boolean {
  const navigation = useNavigation();
  return (
    navigation.state === 'submitting' &&
    navigation.formAction?.startsWith(TWO_FACTOR_SETTINGS_PATH) === true &&
    navigation.formData?.get('intent') === intent
  );
}

function IntentButton({
  intent,
  label,
  busyLabel,
  danger = false,
}: Record<'intent' | 'label' | 'busyLabel', string> & { danger?: boolean }) {
  return (
    <SubmitButton
      name="intent"
      value={intent}
      pending={useSubmitting(intent)}
      pendingLabel={busyLabel}
      variant={danger ? 'danger' : 'primary'}
    >
      {label}
    </SubmitButton>
  );
}

/** Starts a setup: the next page shows the QR code. */
export function EnableTwoFactorForm({ size = 'sm' }: { size?: 'sm' | 'md' }) {
  const busy = useSubmitting('enroll');
  return (
    <Form method="post" action={TWO_FACTOR_SETTINGS_PATH}>
      <SubmitButton
        name="intent"
        value="enroll"
        pending={busy}
        variant={size === 'sm' ? 'secondary' : 'primary'}
        size={size}
      >
        Enable Two-Factor
      </SubmitButton>
    </Form>
  );
}

/** The Security tab's row: the state, and the way to change it. */
export function TwoFactorPanel({ on }: { on: boolean }) {
  return (
    <div className={ROW}>
      <div>
        <h3 className="font-medium">Two-factor authentication</h3>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Two-factor authentication is <strong>{on ? 'on' : 'off'}</strong> for your account.
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {on
            ? 'Signing in asks for a code from your authenticator app.'
            : 'Ask for a code from an authenticator app each time you sign in.'}
        </p>
      </div>
      {on ? (
        <Link to={TWO_FACTOR_SETTINGS_PATH} className={buttonClass('secondary', 'sm')}>
          Disable Two-Factor
        </Link>
      ) : (
        <EnableTwoFactorForm />
      )}
    </div>
  );
}

/** The QR code drawn from its modules, dark on light in both themes (scanners need the contrast). */
function QrCodeImage({ qr }: { qr: QrCode }) {
  const margin = 4;
  const box = qr.size + margin * 2;
  return (
    <svg
      role="img"
      aria-label="QR code to scan with your authenticator app"
      viewBox={`${-margin} ${-margin} ${box} ${box}`}
      className="size-52 rounded-lg border border-slate-300 bg-white dark:border-slate-600"
      shapeRendering="crispEdges"
    >
      <rect x={-margin} y={-margin} width={box} height={box} fill="#ffffff" />
      <path d={qr.path} fill="#000000" />
    </svg>
  );
}

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** The one code input of every two-factor form (the sign-in code page too). */
export function TotpCodeField({ invalid }: { invalid: boolean }) {
  return (
    <Field
      label="Authentication code"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      required
      maxLength={7}
      className="max-w-xs"
      hint="The 6-digit code your authenticator app shows now."
      aria-invalid={invalid ? true : undefined}
    />
  );
}

/** Step two of enabling: scan (or type the secret), then confirm with a first code. */
export function TwoFactorSetupForm({ setup, result }: { setup: TotpSetup; result: FormResult | null }) {
  const notice = formNotice(result);
  return (
    <div className="space-y-6">
      {notice ? <FormMessage {...notice} /> : null}
      <ol className="list-decimal space-y-6 pl-5">
        <li>
          <p className="font-medium">Scan this QR code with an authenticator app</p>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            For example Google Authenticator, Microsoft Authenticator, 1Password or Authy.
          </p>
          <div className="mt-3">
            <QrCodeImage qr={setup.qr} />
          </div>
        </li>
        <li>
          <p className="font-medium">Or enter this key by hand</p>
          <p className="mt-1">
            <code
              className="rounded bg-slate-100 px-2 py-1 font-mono text-sm break-all dark:bg-slate-800"
              translate="no"
            >
              {grouped(setup.secret)}
            </code>
          </p>
          <details className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            <summary className="cursor-pointer">Show the setup link</summary>
            <p className="mt-1 font-mono break-all" translate="no">
              {setup.uri}
            </p>
          </details>
        </li>
        <li>
          <p className="font-medium">Enter the code the app shows to finish</p>
          <Form method="post" action={TWO_FACTOR_SETTINGS_PATH} className="mt-3 space-y-4">
            <input type="hidden" name="factorId" value={setup.factorId} />
            <input type="hidden" name="enrollmentUri" value={setup.uri} />
            <TotpCodeField invalid={notice?.kind === 'error'} />
            <div className="flex flex-wrap items-center gap-3">
              <IntentButton intent="confirm" label="Verify and Enable" busyLabel="Verifying..." />
              <Link to="/profile?tab=security" className={buttonClass('ghost', 'md')}>
                Cancel
              </Link>
            </div>
          </Form>
        </li>
      </ol>
    </div>
  );
}

/** Turning two-factor off takes a current code, so a borrowed session alone cannot. */
export function DisableTwoFactorForm({ result }: { result: FormResult | null }) {
  const notice = formNotice(result);
  return (
    <Form method="post" action={TWO_FACTOR_SETTINGS_PATH} className="space-y-4">
      {notice ? <FormMessage {...notice} /> : null}
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Two-factor authentication is <strong>on</strong>. To turn it off, enter a current code from your authenticator
        app.
      </p>
      <TotpCodeField invalid={notice?.kind === 'error'} />
      <IntentButton intent="disable" label="Disable Two-Factor" busyLabel="Disabling..." danger />
    </Form>
  );
}

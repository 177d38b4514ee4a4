import { data, Link } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { DisableTwoFactorForm, EnableTwoFactorForm, TwoFactorSetupForm } from '~/components/profile/two-factor-panel';
import { FormMessage } from '~/components/ui/field';
import { supabaseContext } from '~/context';
import { formNotice, type FormResult } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { TWO_FACTOR_MESSAGES } from '~/lib/two-factor';
import { TwoFactorSettingsSchema } from '~/schemas/two-factor';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requirePermission } from '~/server/guards.server';
import { unavailable } from '~/server/http-errors.server';
import { formWindows } from '~/server/rate-limit.server';
import {
  checkCode,
  disableTotp,
  mirrorTwoFactorSetting,
  refusal,
  setupFromUri,
  startTotpSetup,
  verifiedTotpFactor,
  type TotpSetup,
} from '~/server/two-factor.server';
import { forgetViewer } from '~/server/viewer.server';
import type { Route } from './+types/profile-two-factor';

/**
 * `/profile/two-factor`: set up TOTP (QR code and secret, confirmed by a first code) or turn it
 * off with a current code. The Security tab links here; state lives on the server and in the
 * forms, so every step works without JavaScript (ADR 016).
 */
export async function loader(args: Route.LoaderArgs) {
  requirePermission(args, 'manage_profile');
  const factor = await verifiedTotpFactor(args.context.get(supabaseContext)).catch((error: Error) => {
    console.error('Two-factor factors unavailable:', error.message);
    return unavailable();
  });
  return { on: factor !== null };
}

/** The answer of a step that did not go through: its messages, and the setup to show again (if any). */
function refused(reply: ReturnType<typeof formError>, setup: TotpSetup | null = null) {
  return data({ form: reply.data, setup }, reply.init ?? undefined);
}

async function done(request: Request, message: string) {
  return redirectWithFlash(request, '/profile?tab=security', { kind: 'success', message });
}

export async function action(args: Route.ActionArgs) {
  const viewer = requirePermission(args, 'manage_profile');
  const { request, context } = args;
  const client = context.get(supabaseContext);
  const submission = parseForm(await request.formData(), TwoFactorSettingsSchema);
  if (submission.status !== 'success') {
    const payload = submission.payload;
    const again =
      typeof payload.factorId === 'string' && typeof payload.enrollmentUri === 'string'
        ? setupFromUri(payload.factorId, payload.enrollmentUri)
        : null;
    return refused(formError(submission), again);
  }
  const form = submission.value;
  switch (form.intent) {
    case 'enroll': {
      const started = await startTotpSetup(client);
      if (!started.ok) return refused(refusal(submission, started));
      return data({ form: null, setup: started.setup });
    }
    case 'confirm': {
      const setup = setupFromUri(form.factorId, form.enrollmentUri);
      if (!setup) return refused(formError(submission, { message: TWO_FACTOR_MESSAGES.expired, status: 409 }));
      const check = await checkCode(client, formWindows(context), viewer.id, form.factorId, form.code);
      if (!check.ok) return refused(refusal(submission, check), check.status === 409 ? null : setup);
      await mirrorTwoFactorSetting(client, viewer.id, true);
      forgetViewer(viewer.id);
      return done(request, TWO_FACTOR_MESSAGES.enabled);
    }
    case 'disable': {
      const result = await disableTotp(client, formWindows(context), viewer.id, form.code);
      if (!result.ok) return refused(refusal(submission, result));
      await mirrorTwoFactorSetting(client, viewer.id, false);
      forgetViewer(viewer.id);
      return done(request, TWO_FACTOR_MESSAGES.disabled);
    }
  }
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Two-factor authentication', 'Protect your AgentMarket account with codes from an authenticator app.');

export default function TwoFactorSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const result: FormResult | null = actionData?.form ?? null;
  const setup = actionData?.setup ?? null;
  const notice = formNotice(result);
  return (
    <div className="container-page py-10">
      <p className="mb-4 text-sm">
        <Link
          to="/profile?tab=security"
          className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
        >
          ← Back to Security settings
        </Link>
      </p>
      <section
        aria-labelledby="two-factor-title"
        className="max-w-2xl rounded-2xl border border-slate-200 p-6 dark:border-slate-800"
      >
        <h1 id="two-factor-title" className="text-2xl font-bold">
          Two-factor authentication
        </h1>
        <p className="mt-1 mb-6 text-sm text-slate-700 dark:text-slate-300">
          Signing in asks for a code from an authenticator app on your phone, as well as your password.
        </p>
        {setup ? (
          <TwoFactorSetupForm setup={setup} result={result} />
        ) : loaderData.on ? (
          <DisableTwoFactorForm result={result} />
        ) : (
          <div className="space-y-4">
            {notice ? <FormMessage {...notice} /> : null}
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Two-factor authentication is <strong>off</strong>. Enable it to show a QR code for your authenticator app.
            </p>
            <EnableTwoFactorForm size="md" />
          </div>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/**
 * /dashboard/billing/payment-methods/new: Add Payment Method. The card's number, expiry and CVC
 * go to the payment provider, which saves the card (or declines it); only its brand, last four
 * digits and expiry are kept (app/server/payment-methods.server.ts). The number and the CVC are
 * never stored, logged, or sent back in the page after an error (app/server/forms.server.ts).
 */
import { FlaskConical, Lock } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { buttonClass } from '~/components/ui/button';
import { Field, FormMessage } from '~/components/ui/field';
import { connectionContext } from '~/context';
import { fieldError, fieldValue, formNotice } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { NewCardSchema } from '~/schemas/payment-method';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection } from '~/server/guards.server';
import { addPaymentMethod, PAYMENT_METHOD_REFUSALS } from '~/server/payment-methods.server';
import { paymentProvider } from '~/server/payments/index.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/payment-method-new';

const BILLING_PATH = '/dashboard/billing';

export function loader(args: Route.LoaderArgs) {
  requireSection(args);
  return { testMode: paymentProvider().testMode };
}

export async function action(args: Route.ActionArgs) {
  const { viewer } = requireSection(args);
  const submission = parseForm(await args.request.formData(), NewCardSchema);
  if (submission.status !== 'success') return formError(submission);
  const { cardNumber, expiry, cvc } = submission.value;
  const outcome = await addPaymentMethod(
    createServiceSupabase(args.context.get(connectionContext)),
    paymentProvider(),
    {
      userId: viewer.id,
      card: { number: cardNumber, expMonth: expiry.expMonth, expYear: expiry.expYear, cvc },
    },
  );
  if (!outcome.ok) {
    if ('declined' in outcome) {
      return formError(submission, {
        message: outcome.declined,
        fieldErrors: { cardNumber: [outcome.declined] },
        status: 402,
      });
    }
    return formError(submission, PAYMENT_METHOD_REFUSALS[outcome.refusal]);
  }
  const { label, isDefault } = outcome.method;
  const message = `${label} was added${isDefault ? ' as your default payment method' : ''}.`;
  return redirectWithFlash(args.request, BILLING_PATH, { kind: 'success', message });
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Add Payment Method', 'Save a card to pay for your AgentMarket plan and purchases.');

export default function NewPaymentMethodPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting';
  const notice = formNotice(actionData);
  return (
    <div className="flex max-w-xl flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Add Payment Method</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          Save a card for your plan and your purchases. Your first card becomes your default.
        </p>
      </header>
      <Form method="post" className="flex flex-col gap-4 rounded-xl border border-slate-200 p-5 dark:border-slate-800">
        {notice ? <FormMessage {...notice} /> : null}
        {/* The number and the CVC never come back from the server: after an error they are typed again. */}
        <Field
          label="Card number"
          name="cardNumber"
          autoComplete="cc-number"
          inputMode="numeric"
          placeholder="1234 1234 1234 1234"
          maxLength={23}
          required
          error={fieldError(actionData, 'cardNumber')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Expiry date (MM/YY)"
            name="expiry"
            autoComplete="cc-exp"
            inputMode="numeric"
            placeholder="MM/YY"
            maxLength={7}
            required
            defaultValue={fieldValue(actionData, 'expiry')}
            error={fieldError(actionData, 'expiry')}
          />
          <Field
            label="Security code (CVC)"
            name="cvc"
            autoComplete="cc-csc"
            inputMode="numeric"
            maxLength={4}
            required
            error={fieldError(actionData, 'cvc')}
          />
        </div>
        {loaderData.testMode ? (
          <p className="flex items-center gap-2 text-xs text-slate-700 dark:text-slate-300">
            <FlaskConical aria-hidden="true" className="size-4 shrink-0" /> Test mode: no real card is charged. Use a
            test card such as 4242 4242 4242 4242 with any future date and any CVC.
          </p>
        ) : null}
        <p className="flex items-center gap-2 text-xs text-slate-700 dark:text-slate-300">
          <Lock aria-hidden="true" className="size-4 shrink-0" /> Your card goes to our payment provider; AgentMarket
          keeps only its brand, last four digits and expiry.
        </p>
        <div className="flex flex-wrap gap-3">
          <button type="submit" disabled={saving} className={buttonClass('primary')}>
            {saving ? 'Saving…' : 'Save Card'}
          </button>
          <Link to={BILLING_PATH} className={buttonClass('secondary')}>
            Back to Billing
          </Link>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

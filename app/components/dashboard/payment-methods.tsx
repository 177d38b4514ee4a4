/** Billing's saved cards: the list, the default, a new expiry, removal, and the link to add one. */
import { CreditCard, Plus } from 'lucide-react';
import { Form, Link, useNavigation, useSearchParams } from 'react-router';
import { Badge } from '~/components/dashboard/status-badge';
import { buttonClass } from '~/components/ui/button';
import { Field, FormMessage } from '~/components/ui/field';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { formatExpiry, isPaymentMethodIntent, paymentMethodName } from '~/lib/payment-methods';
import type { PaymentMethodView } from '~/server/payment-methods.server';

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

/** Where Add Payment Method leads. */
export const NEW_PAYMENT_METHOD_PATH = '/dashboard/billing/payment-methods/new';

/**
 * The member's saved cards: Default badge; Edit (the expiry: `?edit=<id>` opens the form in the
 * card's row), Make Default and Remove (non-default only) are POST forms to Billing's action;
 * Add Payment Method is its own page. `result` is the action's answer to one of these forms.
 */
export function PaymentMethods({
  methods,
  result,
}: {
  methods: readonly PaymentMethodView[];
  result?: FormResult | null;
}) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && isPaymentMethodIntent(navigation.formData?.get('intent'));
  const failedEdit = fieldValue(result, 'intent') === 'edit-expiry' ? fieldValue(result, 'methodId') : undefined;
  const editing = failedEdit ?? searchParams.get('edit');
  // An edit's error shows in the card's row; any other (or one about no card of theirs) up here.
  const notice = methods.some((method) => method.id === failedEdit) ? null : formNotice(result);
  return (
    <section aria-labelledby="payment-methods" className={PANEL}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="payment-methods" className="text-lg font-semibold">
          Payment Methods
        </h2>
        <Link to={NEW_PAYMENT_METHOD_PATH} className={buttonClass('secondary', 'sm')}>
          <Plus aria-hidden="true" className="size-4" /> Add Payment Method
        </Link>
      </div>
      {notice ? (
        <div className="mt-4">
          <FormMessage {...notice} />
        </div>
      ) : null}
      {methods.length === 0 ? (
        <p className={`mt-4 ${SECONDARY}`}>
          No saved payment methods yet. Add a card: plans and purchases are then charged to your default card.
        </p>
      ) : (
        <ul className="mt-4 flex flex-col gap-3">
          {methods.map((method) => (
            <li
              key={method.id}
              id={`payment-method-${method.id}`}
              className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
            >
              <CreditCard aria-hidden="true" className="size-6 shrink-0" />
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {method.label}
                  {method.isDefault ? <Badge>Default</Badge> : null}
                </p>
                <p className={SECONDARY}>Expires {formatExpiry(method.expMonth, method.expYear)}</p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Link
                  to={`?edit=${method.id}#payment-method-${method.id}`}
                  aria-label={`Edit ${paymentMethodName(method)}`}
                  className={buttonClass('ghost', 'sm')}
                >
                  Edit
                </Link>
                {method.isDefault ? null : (
                  <>
                    <MethodButton method={method} intent="make-default" busy={busy}>
                      Make Default
                    </MethodButton>
                    <MethodButton method={method} intent="remove" busy={busy}>
                      Remove
                    </MethodButton>
                  </>
                )}
              </div>
              {editing === method.id ? (
                <ExpiryForm method={method} result={failedEdit === method.id ? result : null} busy={busy} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function MethodButton({
  method,
  intent,
  busy,
  children,
}: {
  method: PaymentMethodView;
  intent: 'make-default' | 'remove';
  busy: boolean;
  children: string;
}) {
  return (
    <Form method="post" action="/dashboard/billing">
      <input type="hidden" name="methodId" value={method.id} />
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={busy}
        aria-label={`${children} ${paymentMethodName(method)}`}
        className={buttonClass('ghost', 'sm')}
      >
        {children}
      </button>
    </Form>
  );
}

/** Edit: a new expiry for one card, in its row. */
function ExpiryForm({
  method,
  result,
  busy,
}: {
  method: PaymentMethodView;
  result: FormResult | null | undefined;
  busy: boolean;
}) {
  const current = `${String(method.expMonth).padStart(2, '0')}/${String(method.expYear).slice(-2)}`;
  const notice = formNotice(result);
  return (
    <Form method="post" action="/dashboard/billing" className="flex w-full flex-wrap items-end gap-3">
      <input type="hidden" name="methodId" value={method.id} />
      {notice ? (
        <div className="w-full">
          <FormMessage {...notice} />
        </div>
      ) : null}
      <Field
        label={`New expiry date of ${method.label} (MM/YY)`}
        name="expiry"
        autoComplete="cc-exp"
        inputMode="numeric"
        placeholder="MM/YY"
        required
        defaultValue={fieldValue(result, 'expiry') ?? current}
        error={fieldError(result, 'expiry')}
        className="w-56"
      />
      <button type="submit" name="intent" value="edit-expiry" disabled={busy} className={buttonClass('primary', 'sm')}>
        Save Expiry
      </button>
      <Link to="/dashboard/billing" className={buttonClass('secondary', 'sm')}>
        Cancel
      </Link>
    </Form>
  );
}

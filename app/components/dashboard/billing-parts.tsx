import { CreditCard, Download, FileText, Lock, Plus } from 'lucide-react';
import { Form, Link, useNavigation, useSearchParams } from 'react-router';
import { ChoosePlanButton } from '~/components/dashboard/membership-parts';
import { Badge, StatusBadge } from '~/components/dashboard/status-badge';
import { buttonClass } from '~/components/ui/button';
import { Pager } from '~/components/ui/pager';
import { Field, FormMessage } from '~/components/ui/field';
import { formatDate, formatMoney } from '~/lib/dashboard-format';
import { BILLING_EXPORT_PATH, invoicePath } from '~/lib/billing-history';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { tierById, type TierId } from '~/lib/membership';
import { pluralize } from '~/lib/plural';
import { GRACE_DAYS } from '~/lib/subscriptions';
import { formatExpiry, isPaymentMethodIntent } from '~/lib/payment-methods';
import type { PaymentMethodView } from '~/server/payment-methods.server';
import type { BillingHistoryPage } from '~/server/billing-history.server';

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

/** Billing's view of the member's plan: their live subscription, or null on the free Basic plan. */
export interface SubscriptionSummary {
  plan: string;
  /** The monthly price of the plan. */
  amount: number;
  status: 'active' | 'past_due';
  /** The end of the current period, formatted: the next billing date, or the day the plan ends. */
  periodEnd: string;
  cancelAtPeriodEnd: boolean;
  /** The plan it changes to at the end of the period (a downgrade), if any. */
  scheduledPlan: string | null;
  /** The tier 'Change Plan' opens the confirmation page of. */
  changeTo: TierId;
  /** Past due: the last day of the grace period (formatted), after which the plan ends. */
  graceEnds: string | null;
}

export function SubscriptionPanel({
  subscription,
  result,
}: {
  subscription: SubscriptionSummary | null;
  result?: FormResult | null;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.has('intent');
  const notice = formNotice(result);
  const facts: [string, string][] = subscription
    ? [
        ['Plan', subscription.plan],
        ['Amount', `${formatMoney(subscription.amount)} / month`],
        [
          subscription.cancelAtPeriodEnd
            ? 'Ends on'
            : subscription.graceEnds
              ? 'Payment due since'
              : 'Next billing date',
          subscription.periodEnd,
        ],
      ]
    : [
        ['Plan', tierById('basic').name],
        ['Amount', `${formatMoney(0)} / month`],
      ];
  return (
    <section aria-labelledby="current-subscription" className={PANEL}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="current-subscription" className="text-lg font-semibold">
          Current Subscription
        </h2>
        {subscription ? <StatusBadge status={subscription.status} /> : null}
      </div>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt className={SECONDARY}>{label}</dt>
            <dd className="font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      {subscription ? (
        <SubscriptionActions subscription={subscription} pending={!!pending} />
      ) : (
        <>
          <p className={`mt-4 ${SECONDARY}`}>
            You are on the free plan. A paid plan adds a discount on every purchase.
          </p>
          <Link to="/dashboard/membership" className={`${buttonClass('primary')} mt-5`}>
            See plans
          </Link>
        </>
      )}
      {notice ? (
        <div className="mt-4">
          <FormMessage {...notice} />
        </div>
      ) : null}
    </section>
  );
}

/** What a subscriber can do: Change Plan, Cancel Subscription, or its undo, Keep Subscription. */
function SubscriptionActions({ subscription, pending }: { subscription: SubscriptionSummary; pending: boolean }) {
  return (
    <>
      {subscription.graceEnds ? (
        <p className="mt-4 text-sm font-medium text-red-800 dark:text-red-300">
          Your last payment did not go through. We will try again every day; you keep {subscription.plan} for a grace
          period of {GRACE_DAYS} days. If no payment succeeds by {subscription.graceEnds}, your plan ends and you move
          to Basic.
        </p>
      ) : null}
      {subscription.cancelAtPeriodEnd ? (
        <p className="mt-4 text-sm font-medium text-red-800 dark:text-red-300">
          Cancelled: your {subscription.plan} plan ends on {subscription.periodEnd}. Nothing more will be charged.
          Changed your mind? Keep your subscription until then.
        </p>
      ) : subscription.scheduledPlan ? (
        <p className={`mt-4 ${SECONDARY}`}>
          Changes to {subscription.scheduledPlan} on {subscription.periodEnd}.
        </p>
      ) : null}
      <div className="mt-5 flex flex-wrap gap-3">
        {subscription.cancelAtPeriodEnd ? null : (
          <ChoosePlanButton tier={subscription.changeTo} primary>
            Change Plan
          </ChoosePlanButton>
        )}
        <Form method="post">
          {subscription.cancelAtPeriodEnd ? (
            <button type="submit" name="intent" value="resume" disabled={pending} className={buttonClass('primary')}>
              Keep Subscription
            </button>
          ) : (
            <button type="submit" name="intent" value="cancel" disabled={pending} className={buttonClass('secondary')}>
              Cancel Subscription
            </button>
          )}
        </Form>
      </div>
    </>
  );
}

/** The card's name for screen readers on its buttons: "Visa ending in 4242". */
const methodName = (method: PaymentMethodView) => `${method.brand} ending in ${method.last4}`;

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
                  aria-label={`Edit ${methodName(method)}`}
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
        aria-label={`${children} ${methodName(method)}`}
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

/** Billing History: every charge, newest first, with its invoice; Download All as CSV. */
export function BillingHistory({ history, timeZone }: { history: BillingHistoryPage; timeZone: string }) {
  return (
    <section aria-labelledby="billing-history" className={PANEL}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="billing-history" className="text-lg font-semibold">
          Billing History
        </h2>
        {history.total > 0 ? (
          <a href={BILLING_EXPORT_PATH} download className={buttonClass('secondary', 'sm')}>
            <Download aria-hidden="true" className="size-4" /> Download All
          </a>
        ) : null}
      </div>
      {history.total === 0 ? (
        <p className={`mt-4 ${SECONDARY}`}>
          No charges yet. Your purchases and membership payments will be listed here, each with its invoice.
        </p>
      ) : (
        <>
          <div className="mt-4 overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">
                Billing history, newest first ({pluralize(history.total, 'charge')})
              </caption>
              <thead className="border-b border-slate-200 text-slate-700 dark:border-slate-700 dark:text-slate-300">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Description
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-medium">
                    Amount
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Status
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Payment Method
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Invoice
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                {history.rows.map((row) => (
                  <tr key={row.id}>
                    <td className="py-3 pr-4 whitespace-nowrap">{formatDate(row.date, timeZone)}</td>
                    <td className="py-3 pr-4">{row.description}</td>
                    <td className="py-3 pr-4 text-right tabular-nums">{formatMoney(row.amount)}</td>
                    <td className="py-3 pr-4">
                      <StatusBadge status={row.status} />
                    </td>
                    <td className="py-3 pr-4">{row.paymentMethod}</td>
                    <td className="py-3">
                      <Link
                        to={invoicePath(row.id)}
                        aria-label={`Invoice ${row.invoiceNumber}`}
                        className={buttonClass('ghost', 'sm')}
                      >
                        <FileText aria-hidden="true" className="size-4" /> Invoice
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Billing history pages" page={history.page} pageCount={history.pageCount} />
        </>
      )}
    </section>
  );
}

export function SecurityNote() {
  return (
    <aside
      aria-label="Payment security"
      className="flex items-start gap-3 rounded-xl bg-slate-100 p-4 text-sm text-slate-800 dark:bg-slate-900 dark:text-slate-200"
    >
      <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>
        Your payment information is secure. Payments will be processed by a PCI-compliant payment provider over an
        encrypted connection; AgentMarket never stores full card numbers.
      </p>
    </aside>
  );
}

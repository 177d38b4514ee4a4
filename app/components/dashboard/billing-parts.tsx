import { CreditCard, Download, FileText, Lock, Plus, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { Badge, StatusBadge } from '~/components/dashboard/status-badge';
import { buttonClass } from '~/components/ui/button';
import { formatDate, formatMoney } from '~/lib/dashboard-format';
import { tierById } from '~/lib/membership';
import type { SampleInvoice, SamplePaymentMethod, SampleSubscription } from '~/lib/membership-sample-billing';

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

export function SubscriptionPanel({ subscription, noteId }: { subscription: SampleSubscription; noteId: string }) {
  return (
    <section aria-labelledby="current-subscription" className={PANEL}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="current-subscription" className="text-lg font-semibold">
          Current Subscription
        </h2>
        <StatusBadge status={subscription.status} />
      </div>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        <div>
          <dt className={SECONDARY}>Plan</dt>
          <dd className="font-semibold">{tierById(subscription.plan).name}</dd>
        </div>
        <div>
          <dt className={SECONDARY}>Amount</dt>
          <dd className="font-semibold">
            {formatMoney(subscription.amount)} / {subscription.interval}
          </dd>
        </div>
        <div>
          <dt className={SECONDARY}>Next billing date</dt>
          <dd className="font-semibold">{formatDate(subscription.currentPeriodEnd)}</dd>
        </div>
      </dl>
      <div className="mt-5 flex flex-wrap gap-3">
        <Link to="/dashboard/membership" className={buttonClass('primary')}>
          Change Plan
        </Link>
        <button type="button" disabled aria-describedby={noteId} className={buttonClass('secondary')}>
          Cancel Subscription
        </button>
      </div>
    </section>
  );
}

function methodName(method: SamplePaymentMethod): string {
  return method.type === 'paypal' ? 'PayPal' : `${method.brand} ending in ${method.last4}`;
}

export function PaymentMethods({ methods, noteId }: { methods: readonly SamplePaymentMethod[]; noteId: string }) {
  return (
    <section aria-labelledby="payment-methods" className={PANEL}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="payment-methods" className="text-lg font-semibold">
          Payment Methods
        </h2>
        <button type="button" disabled aria-describedby={noteId} className={buttonClass('secondary', 'sm')}>
          <Plus aria-hidden="true" className="size-4" /> Add Payment Method
        </button>
      </div>
      <ul className="mt-4 flex flex-col gap-3">
        {methods.map((method) => (
          <li
            key={method.id}
            className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
          >
            {method.type === 'paypal' ? (
              <Wallet aria-hidden="true" className="size-6 shrink-0" />
            ) : (
              <CreditCard aria-hidden="true" className="size-6 shrink-0" />
            )}
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2 font-medium">
                {method.type === 'paypal' ? 'PayPal' : `${method.brand} •••• ${method.last4}`}
                {method.isDefault ? <Badge>Default</Badge> : null}
              </p>
              {/* A long email breaks anywhere rather than running under the buttons on a phone. */}
              <p className={`${SECONDARY} wrap-anywhere`}>
                {method.type === 'paypal'
                  ? method.email
                  : `Expires ${String(method.expiryMonth).padStart(2, '0')}/${method.expiryYear}`}
              </p>
            </div>
            <div className="flex gap-2">
              <button
                type="button"
                disabled
                aria-label={`Edit ${methodName(method)}`}
                aria-describedby={noteId}
                className={buttonClass('ghost', 'sm')}
              >
                Edit
              </button>
              {method.isDefault ? null : (
                <button
                  type="button"
                  disabled
                  aria-label={`Remove ${methodName(method)}`}
                  aria-describedby={noteId}
                  className={buttonClass('ghost', 'sm')}
                >
                  Remove
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function BillingHistory({ invoices, noteId }: { invoices: readonly SampleInvoice[]; noteId: string }) {
  return (
    <section aria-labelledby="billing-history" className={PANEL}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="billing-history" className="text-lg font-semibold">
          Billing History
        </h2>
        <button type="button" disabled aria-describedby={noteId} className={buttonClass('secondary', 'sm')}>
          <Download aria-hidden="true" className="size-4" /> Download All
        </button>
      </div>
      <div className="mt-4 overflow-x-auto">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <caption className="sr-only">Billing history (sample data)</caption>
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
            {invoices.map((invoice) => (
              <tr key={invoice.id}>
                <td className="py-3 pr-4 whitespace-nowrap">{formatDate(invoice.date)}</td>
                <td className="py-3 pr-4">{invoice.description}</td>
                <td className="py-3 pr-4 text-right tabular-nums">${invoice.amount.toFixed(2)}</td>
                <td className="py-3 pr-4">
                  <StatusBadge status={invoice.status} />
                </td>
                <td className="py-3 pr-4">{invoice.paymentMethod}</td>
                <td className="py-3">
                  <button
                    type="button"
                    disabled
                    aria-label={`Invoice for ${invoice.description} on ${formatDate(invoice.date)}`}
                    aria-describedby={noteId}
                    className={buttonClass('ghost', 'sm')}
                  >
                    <FileText aria-hidden="true" className="size-4" /> Invoice
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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

import { GeneralErrorBoundary } from '~/components/error-boundary';
import { BillingHistory, PaymentMethods, SecurityNote, SubscriptionPanel } from '~/components/dashboard/billing-parts';
import { SampleDataNotice } from '~/components/dashboard/status-badge';
import { errorMeta, pageMeta } from '~/lib/meta';
import { SAMPLE_INVOICES, SAMPLE_PAYMENT_METHODS, SAMPLE_SUBSCRIPTION } from '~/lib/membership-sample-billing';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/billing';

const NOTE_ID = 'billing-sample-note';

export function loader(args: Route.LoaderArgs) {
  requireSection(args);
  // No payment provider exists yet: the page shows the specification's sample data, labelled.
  return { subscription: SAMPLE_SUBSCRIPTION, paymentMethods: SAMPLE_PAYMENT_METHODS, invoices: SAMPLE_INVOICES };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Billing', 'Your AgentMarket subscription, payment methods and billing history.');

export default function BillingPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Billing</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">Manage your subscription and payment methods.</p>
      </header>
      <SampleDataNotice id={NOTE_ID}>
        <strong>Sample data.</strong> No payment provider is connected yet: the subscription, payment methods and
        invoices below are examples. Nothing has been charged, and these actions are not available yet.
      </SampleDataNotice>
      <SubscriptionPanel subscription={loaderData.subscription} noteId={NOTE_ID} />
      <PaymentMethods methods={loaderData.paymentMethods} noteId={NOTE_ID} />
      <BillingHistory invoices={loaderData.invoices} noteId={NOTE_ID} />
      <SecurityNote />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

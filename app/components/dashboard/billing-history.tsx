/** Billing's history of charges, with invoices and the CSV export, and the note on card security. */
import { Download, FileText, Lock } from 'lucide-react';
import { Link } from 'react-router';
import { StatusBadge } from '~/components/dashboard/status-badge';
import { buttonClass } from '~/components/ui/button';
import { DataTable, type DataColumn } from '~/components/ui/data-table';
import { Pager } from '~/components/ui/pager';
import { formatDate, formatMoney } from '~/lib/dashboard-format';
import { BILLING_EXPORT_PATH, invoicePath } from '~/lib/billing-history';
import { pluralize } from '~/lib/plural';
import type { BillingHistoryPage } from '~/server/billing-history.server';

type BillingRow = BillingHistoryPage['rows'][number];

function billingColumns(timeZone: string): DataColumn<BillingRow>[] {
  return [
    { header: 'Date', cell: (row) => formatDate(row.date, timeZone), className: 'md:whitespace-nowrap' },
    { header: 'Description', cell: (row) => row.description },
    { header: 'Amount', numeric: true, cell: (row) => formatMoney(row.amount) },
    { header: 'Status', cell: (row) => <StatusBadge status={row.status} /> },
    { header: 'Payment Method', cell: (row) => row.paymentMethod },
    {
      header: 'Invoice',
      cell: (row) => (
        <Link
          to={invoicePath(row.id)}
          aria-label={`Invoice ${row.invoiceNumber}`}
          className={buttonClass('ghost', 'sm')}
        >
          <FileText aria-hidden="true" className="size-4" /> Invoice
        </Link>
      ),
    },
  ];
}

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

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
          <div className="mt-4">
            <DataTable
              caption={`Billing history, newest first (${pluralize(history.total, 'charge')})`}
              columns={billingColumns(timeZone)}
              rows={history.rows}
              rowKey={(row) => row.id}
              framed={false}
            />
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

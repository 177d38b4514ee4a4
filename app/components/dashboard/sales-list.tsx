/**
 * The list of purchases on /dashboard/earnings (a seller's sales) and /dashboard/disputes (all
 * purchases, admins), with the refund form. The form opens through the URL (`?refund=<id>`), so
 * it works without JavaScript; with JavaScript it posts through a fetcher (no full reload) and
 * the action's redirect brings the list back with 'Purchase refunded.'.
 */
import { ListRow } from '~/components/dashboard/list-row';
import { useId } from 'react';
import { Link, useFetcher, useLocation } from 'react-router';
import { ReasonField } from '~/components/dashboard/reason-field';
import { StatusBadge } from '~/components/dashboard/status-badge';
import { Pager } from '~/components/ui/pager';
import { hrefWith } from '~/lib/href-with';
import { buttonClass } from '~/components/ui/button';
import { FormMessage } from '~/components/ui/field';
import { formatDate, formatMoney } from '~/lib/dashboard-format';
import { fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { activationsLine, formatLicenseCode } from '~/lib/licenses';
import type { SaleLicense, SaleRow, SalesPage } from '~/server/sales.server';
import { SubmitButton } from '~/components/ui/submit-button';

export const TEST_MODE_NOTE = 'Test mode: no money moves.';

function TestModeNote() {
  return (
    <p
      role="note"
      className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      {TEST_MODE_NOTE}
    </p>
  );
}

interface SalesListProps {
  sales: SalesPage;
  /** The purchase whose refund form is open (`?refund=`). */
  openRefund: string | null;
  /** The purchase whose licence form is open (`?license=`). */
  openLicense: string | null;
  testMode: boolean;
  /** The last refund submission's answer without JavaScript (the action's data). */
  result: FormResult | null | undefined;
  timeZone: string;
  emptyMessage: string;
}

/** The titled list with the test-mode note above it: one section of the page. */
export function SalesSection({ id, title, ...list }: SalesListProps & { id: string; title: string }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {list.testMode ? <TestModeNote /> : null}
      <SalesList {...list} />
    </section>
  );
}

function SalesList({ sales, openRefund, openLicense, testMode, result, timeZone, emptyMessage }: SalesListProps) {
  const { pathname, search } = useLocation();
  if (sales.rows.length === 0) {
    return (
      <p className="rounded-xl border border-slate-200 p-6 text-slate-700 dark:border-slate-700 dark:text-slate-300">
        {emptyMessage}
      </p>
    );
  }
  return (
    <>
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
        {sales.rows.map((sale) => (
          <li key={sale.id} aria-label={`${sale.agentName}, bought by ${sale.buyerUsername}`}>
            <SaleSummary
              sale={sale}
              timeZone={timeZone}
              refundHref={
                sale.status === 'completed' && openRefund !== sale.id
                  ? hrefWith(pathname, search, { refund: sale.id })
                  : null
              }
              licenseHref={
                sale.license && !sale.license.disabledReason && openLicense !== sale.id
                  ? hrefWith(pathname, search, { license: sale.id, refund: null })
                  : null
              }
            />
            {sale.status === 'completed' && openRefund === sale.id ? (
              <RefundForm
                sale={sale}
                testMode={testMode}
                result={fieldValue(result, 'purchaseId') === sale.id ? result : null}
                action={hrefWith(pathname, search, { refund: sale.id })}
                cancelHref={hrefWith(pathname, search, { refund: null })}
              />
            ) : null}
            {sale.license && !sale.license.disabledReason && openLicense === sale.id ? (
              <DisableLicenseForm
                sale={sale}
                licenseId={sale.license.id}
                result={fieldValue(result, 'licenseId') === sale.license.id ? result : null}
                action={hrefWith(pathname, search, { license: sale.id })}
                cancelHref={hrefWith(pathname, search, { license: null })}
              />
            ) : null}
          </li>
        ))}
      </ul>
      <Pager
        label="Purchase pages"
        page={sales.page}
        pageCount={sales.pageCount}
        clear={['refund', 'license']}
        previousLabel="Newer"
        nextLabel="Older"
      />
    </>
  );
}

function SaleSummary({
  sale,
  timeZone,
  refundHref,
  licenseHref,
}: {
  sale: SaleRow;
  timeZone: string;
  refundHref: string | null;
  licenseHref: string | null;
}) {
  return (
    <ListRow
      details={
        <>
          <p className="font-semibold">
            <Link to={`/agent/${sale.agentId}`} className="hover:underline">
              {sale.agentName}
            </Link>
          </p>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Bought by <span className="font-medium">{sale.buyerUsername}</span> on{' '}
            <time dateTime={sale.createdAt}>{formatDate(sale.createdAt, timeZone)}</time>
          </p>
          {sale.status === 'refunded' && sale.statusReason ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">Refund reason: {sale.statusReason}</p>
          ) : null}
          {sale.license ? <SaleLicenseLine license={sale.license} /> : null}
        </>
      }
    >
      <p className="font-semibold tabular-nums">{formatMoney(sale.amount)}</p>
      <StatusBadge status={sale.status} />
      {refundHref ? (
        <Link to={refundHref} preventScrollReset className={buttonClass('secondary', 'sm')}>
          Refund
          <span className="sr-only">
            {' '}
            {sale.agentName} to {sale.buyerUsername}
          </span>
        </Link>
      ) : null}
      {licenseHref ? (
        <Link to={licenseHref} preventScrollReset className={buttonClass('ghost', 'sm')}>
          Disable licence
          <span className="sr-only">
            {' '}
            of {sale.agentName} for {sale.buyerUsername}
          </span>
        </Link>
      ) : null}
      {sale.license?.disabledReason ? <EnableLicenseForm sale={sale} licenseId={sale.license.id} /> : null}
    </ListRow>
  );
}

/** The sale's licence: its public code (the start of the buyer's key), activations, and why it is disabled. */
function SaleLicenseLine({ license }: { license: SaleLicense }) {
  return (
    <p className="text-sm text-slate-700 dark:text-slate-300">
      Licence <code className="font-mono">{formatLicenseCode(license.code)}</code> ·{' '}
      {activationsLine(license.uses, null)}
      {license.disabledReason ? (
        <span className="font-medium text-red-800 dark:text-red-300"> · Disabled: {license.disabledReason}</span>
      ) : null}
    </p>
  );
}

function EnableLicenseForm({ sale, licenseId }: { sale: SaleRow; licenseId: string }) {
  const fetcher = useFetcher<FormResult>();
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="enable-license" />
      <input type="hidden" name="licenseId" value={licenseId} />
      <SubmitButton pending={fetcher.state !== 'idle'} variant="secondary" size="sm">
        Enable licence
        <span className="sr-only">
          {' '}
          of {sale.agentName} for {sale.buyerUsername}
        </span>
      </SubmitButton>
    </fetcher.Form>
  );
}

function DisableLicenseForm({
  sale,
  licenseId,
  result,
  action,
  cancelHref,
}: {
  sale: SaleRow;
  licenseId: string;
  result: FormResult | null | undefined;
  action: string;
  cancelHref: string;
}) {
  return (
    <ReasonForm
      title={`Disable the licence of ${sale.agentName} for ${sale.buyerUsername}`}
      fields={{ intent: 'disable-license', licenseId }}
      reasonLabel="Reason for disabling the licence"
      reasonHint="The buyer sees it in My Collection, and licence checks answer that the licence is disabled."
      submitLabel="Disable licence"
      result={result}
      action={action}
      cancelHref={cancelHref}
    />
  );
}

interface RefundFormProps {
  sale: SaleRow;
  testMode: boolean;
  result: FormResult | null | undefined;
  action: string;
  cancelHref: string;
}

function RefundForm({ sale, testMode, result, action, cancelHref }: RefundFormProps) {
  return (
    <ReasonForm
      title={`Refund ${sale.agentName} to ${sale.buyerUsername} (${formatMoney(sale.amount)})`}
      note={testMode ? <TestModeNote /> : null}
      fields={{ purchaseId: sale.id }}
      reasonLabel="Reason for the refund"
      reasonHint="The buyer sees it in their purchase history."
      submitLabel="Refund purchase"
      result={result}
      action={action}
      cancelHref={cancelHref}
    />
  );
}

/** A sale's form that needs a reason (a refund, a disabled licence), under its row, with Cancel. */
function ReasonForm({
  title,
  note = null,
  fields,
  reasonLabel,
  reasonHint,
  submitLabel,
  result,
  action,
  cancelHref,
}: {
  title: string;
  note?: React.ReactNode;
  fields: Record<string, string>;
  reasonLabel: string;
  reasonHint: string;
  submitLabel: string;
  result: FormResult | null | undefined;
  action: string;
  cancelHref: string;
}) {
  const fetcher = useFetcher<FormResult>();
  const current = fetcher.data ?? result;
  const notice = formNotice(current);
  const id = useId();
  return (
    <fetcher.Form
      method="post"
      action={action}
      aria-labelledby={`${id}-title`}
      className="space-y-3 border-t border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-900"
    >
      <h3 id={`${id}-title`} className="font-semibold">
        {title}
      </h3>
      {note}
      {notice ? <FormMessage {...notice} /> : null}
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <ReasonField label={reasonLabel} hint={reasonHint} rows={3} result={current} />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={fetcher.state !== 'idle'} variant="danger" size="sm">
          {submitLabel}
        </SubmitButton>
        <Link to={cancelHref} preventScrollReset className={buttonClass('ghost', 'sm')}>
          Cancel
        </Link>
      </div>
    </fetcher.Form>
  );
}

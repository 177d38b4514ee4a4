/**
 * /dashboard/billing/invoices/:invoiceId: the printable invoice of one row of Billing History
 * (an agent purchase or a membership charge). Issued by the seller of the agent, through the
 * marketplace AgentMarket, or by AgentMarket itself for a membership; the buyer, the invoice
 * number and date, the line item, the member discount, the tax line, totals, payment method and
 * status. The print stylesheet (Tailwind `print:`) drops the site's header, navigation and footer;
 * Print opens the browser's dialog, which also saves a PDF. Another member's invoice, a missing
 * one and a malformed id are all the same 404 (app/server/billing-history.server.ts).
 */
import { ArrowLeft, Printer } from 'lucide-react';
import { Link } from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import { StatusBadge } from '~/components/dashboard/status-badge';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { buttonClass } from '~/components/ui/button';
import { connectionContext, supabaseContext } from '~/context';
import { BILLING_PATH, INVOICE_TAX_PERCENT, invoiceTotals, type InvoiceRow } from '~/lib/billing-history';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatDate, formatMoney } from '~/lib/dashboard-format';
import { errorMeta, pageMeta, SITE_NAME } from '~/lib/meta';
import { loadInvoice, type OrderLine, type Party } from '~/server/billing-history.server';
import { requireSection } from '~/server/guards.server';
import { notFound } from '~/server/http-errors.server';
import type { Route } from './+types/billing-invoice';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const invoice = await loadInvoice(
    args.context.get(supabaseContext),
    args.context.get(connectionContext),
    viewer.id,
    args.params.invoiceId,
  );
  if (!invoice) {
    notFound({
      title: 'Invoice not found',
      message: "This invoice doesn't exist or isn't one of yours. Your invoices are listed in Billing History.",
    });
  }
  return { ...invoice, timeZone: timeZoneFromCookieHeader(args.request.headers.get('cookie')) };
}

export const meta: Route.MetaFunction = ({ data, error }) =>
  errorMeta(error) ??
  pageMeta(data ? `Invoice ${data.row.invoiceNumber}` : 'Invoice', 'A printable invoice from your billing history.');

const LABEL = 'text-sm text-slate-700 dark:text-slate-300 print:text-slate-700';
const CELL = 'py-2 pr-4';

interface LineItem {
  name: string;
  detail: string | null;
  price: number;
}

/** The line items: each agent of an order, the agent bought, or the membership charge with its period. */
function lineItems(
  row: InvoiceRow,
  orderLines: OrderLine[] | null,
  licenseKey: string | null,
  timeZone: string,
): LineItem[] {
  if (orderLines) {
    return orderLines.map((line) => ({
      name: `AI agent: ${line.agentName ?? 'an agent no longer listed'}`,
      detail: [
        line.sellerName ? `Sold by @${line.sellerName}` : null,
        licenceDetail(line.licenseKey),
        line.refunded ? 'Refunded' : null,
      ]
        .filter(Boolean)
        .join(' · '),
      price: line.listPrice,
    }));
  }
  return [{ ...lineItem(row, licenseKey, timeZone), price: row.listPrice }];
}

/** 'Licence to download and use', with its key when there is one. */
function licenceDetail(key: string | null): string {
  return key ? `Licence to download and use, key ${key}` : 'Licence to download and use';
}

/** The one line of a single charge: the agent bought, or the membership charge with its period. */
function lineItem(
  row: InvoiceRow,
  licenseKey: string | null,
  timeZone: string,
): { name: string; detail: string | null } {
  if (row.kind === 'purchase') {
    return { name: `AI agent: ${row.agentName ?? 'an agent no longer listed'}`, detail: licenceDetail(licenseKey) };
  }
  const period =
    row.periodStart && row.periodEnd
      ? `${formatDate(row.periodStart, timeZone)} – ${formatDate(row.periodEnd, timeZone)}`
      : null;
  return { name: row.description, detail: period ? `Period: ${period}` : null };
}

function PartyBlock({ id, title, lines }: { id: string; title: string; lines: (string | null)[] }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className={`${LABEL} font-medium`}>
        {title}
      </h2>
      <address className="mt-1 not-italic">
        {lines.filter(Boolean).map((line, index) => (
          <p key={line} className={index === 0 ? 'font-semibold' : 'wrap-anywhere'}>
            {line}
          </p>
        ))}
      </address>
    </section>
  );
}

function issuerLines(seller: Party | null, order: boolean): (string | null)[] {
  if (order) return [SITE_NAME, 'On behalf of the sellers named on each line'];
  if (!seller) return [SITE_NAME, 'The AI agent marketplace'];
  return [seller.name, seller.detail, `Seller on ${SITE_NAME}`];
}

function PrintButton() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button type="button" onClick={() => window.print()} className={buttonClass('primary', 'sm')}>
      <Printer aria-hidden="true" className="size-4" /> Print
    </button>
  );
}

export default function InvoicePage({ loaderData }: Route.ComponentProps) {
  const { row, buyer, seller, orderLines, licenseKey, timeZone } = loaderData;
  const totals = invoiceTotals(row);
  const items = lineItems(row, orderLines, licenseKey, timeZone);
  const marketplace = seller !== null || orderLines !== null;
  const facts: [string, React.ReactNode][] = [
    ['Invoice number', row.invoiceNumber],
    ['Invoice date', formatDate(row.date, timeZone)],
    ['Payment method', row.paymentMethod],
    ['Status', <StatusBadge key="status" status={row.status} />],
  ];
  const totalLines: [string, string][] = [
    ['Subtotal', formatMoney(totals.subtotal)],
    ...(totals.discount > 0
      ? [[`Discount (${row.discountPercent}% member discount)`, `−${formatMoney(totals.discount)}`] as [string, string]]
      : []),
    [`Tax (${INVOICE_TAX_PERCENT}%)`, formatMoney(totals.tax)],
  ];
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={BILLING_PATH} className={buttonClass('ghost', 'sm')}>
          <ArrowLeft aria-hidden="true" className="size-4" /> Back to Billing
        </Link>
        <PrintButton />
      </div>
      <article
        aria-labelledby="invoice-title"
        className="flex flex-col gap-6 rounded-xl border border-slate-200 p-6 dark:border-slate-800 print:border-0 print:p-0 print:text-black"
      >
        <header>
          <h1 id="invoice-title" className="text-3xl font-bold">
            Invoice {row.invoiceNumber}
          </h1>
          <p className={`mt-1 ${LABEL}`}>
            {marketplace ? `Sold through the ${SITE_NAME} marketplace` : `${SITE_NAME} membership`}
          </p>
        </header>

        <div className="grid gap-6 sm:grid-cols-2 print:grid-cols-2">
          <PartyBlock id="invoice-from" title="From" lines={issuerLines(seller, orderLines !== null)} />
          <PartyBlock id="invoice-to" title="Billed to" lines={[buyer.name, buyer.detail]} />
        </div>
        {marketplace ? (
          <p className={LABEL}>Marketplace: {SITE_NAME}, which takes the payment on the seller&apos;s behalf.</p>
        ) : null}

        <dl className="grid gap-4 sm:grid-cols-4 print:grid-cols-4">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt className={LABEL}>{label}</dt>
              <dd className="font-semibold">{value}</dd>
            </div>
          ))}
        </dl>

        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Line items and totals</caption>
            <thead className="border-b border-slate-200 text-slate-700 dark:border-slate-700 dark:text-slate-300 print:text-slate-700">
              <tr>
                <th scope="col" className={`${CELL} font-medium`}>
                  Description
                </th>
                <th scope="col" className={`${CELL} text-right font-medium`}>
                  Quantity
                </th>
                <th scope="col" className={`${CELL} text-right font-medium`}>
                  Unit price
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody className="border-b border-slate-200 dark:border-slate-700">
              {items.map((item, index) => (
                <tr key={`${item.name}-${index}`}>
                  <td className={CELL}>
                    <p className="font-medium">{item.name}</p>
                    {item.detail ? <p className={LABEL}>{item.detail}</p> : null}
                  </td>
                  <td className={`${CELL} text-right tabular-nums`}>1</td>
                  <td className={`${CELL} text-right tabular-nums`}>{formatMoney(item.price)}</td>
                  <td className="py-2 text-right tabular-nums">{formatMoney(item.price)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {totalLines.map(([label, value]) => (
                <tr key={label}>
                  <th scope="row" colSpan={3} className={`${CELL} text-right font-normal`}>
                    {label}
                  </th>
                  <td className="py-2 text-right tabular-nums">{value}</td>
                </tr>
              ))}
              <tr className="border-t border-slate-200 text-base dark:border-slate-700">
                <th scope="row" colSpan={3} className={`${CELL} text-right font-semibold`}>
                  Total
                </th>
                <td className="py-2 text-right font-semibold tabular-nums">{formatMoney(totals.total)}</td>
              </tr>
            </tfoot>
          </table>
        </div>

        <InvoiceNotes row={row} timeZone={timeZone} />
      </article>
      <p className={`${LABEL} print:hidden`}>
        To keep a PDF copy, choose Print and then &ldquo;Save as PDF&rdquo; as the printer.
      </p>
    </div>
  );
}

/** What the figures above do not say: the tax rate, test mode, a refund or a failed payment. */
function InvoiceNotes({ row, timeZone }: { row: InvoiceRow; timeZone: string }) {
  const notes = [
    `Tax is charged at ${INVOICE_TAX_PERCENT}%: ${SITE_NAME} does not collect sales tax or VAT on these prices.`,
    row.provider === 'test' ? 'Test mode: no real payment was taken.' : null,
    row.status === 'refunded'
      ? `Refunded in full${row.refundedAt ? ` on ${formatDate(row.refundedAt, timeZone)}` : ''}${row.statusReason ? `: ${row.statusReason}` : '.'}`
      : null,
    row.status === 'failed'
      ? `This payment failed, so nothing was charged${row.statusReason ? `: ${row.statusReason}` : '.'}`
      : null,
    row.status === 'pending' ? 'This payment is still being processed.' : null,
  ].filter((note): note is string => note !== null);
  return (
    <ul className={`flex flex-col gap-1 ${LABEL}`}>
      {notes.map((note) => (
        <li key={note}>{note}</li>
      ))}
    </ul>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

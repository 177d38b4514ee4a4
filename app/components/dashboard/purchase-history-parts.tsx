import { agentPicture } from '~/lib/agent-artwork';
import {
  CheckCircle,
  Clock,
  Download,
  ExternalLink,
  Mail,
  MessageSquare,
  Receipt,
  RotateCcw,
  Search,
  Star,
  XCircle,
  type LucideIcon,
} from 'lucide-react';
import { useRef, type FormEvent } from 'react';
import { Form, Link, useNavigation, useSubmit } from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import { AgentStars } from '~/components/agents/agent-stars';
import { SellerContactLinks } from '~/components/agents/seller-contact';
import { Avatar } from '~/components/ui/avatar';
import { buttonClass } from '~/components/ui/button';
import { UrlDialog } from '~/components/ui/url-dialog';
import type { Category } from '~/lib/categories';
import { formatMoney } from '~/lib/dashboard-format';
import { STATUS_TONE, TONE_CLASS, statusLabel, type PurchaseStatus } from '~/lib/membership';
import {
  PURCHASES_PATH,
  QUICK_MESSAGES,
  STATUS_FILTER_OPTIONS,
  agentDownloadHref,
  agentReviewHref,
  contactDraft,
  downloadCountLabel,
  mailtoHref,
  responseTimeLabel,
  type PurchaseHistoryParams,
  type PurchaseRow,
  type SellerContact,
} from '~/lib/purchase-history';

const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';
const FIELD =
  'h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';

const STATUS_ICON: Record<PurchaseStatus, LucideIcon> = {
  completed: CheckCircle,
  pending: Clock,
  failed: XCircle,
  refunded: RotateCcw,
};

/** Whether a client-side navigation to this page is under way (filters applied, dialog opened). */
export function usePurchasesPending(): boolean {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.location?.pathname === PURCHASES_PATH;
}

/**
 * The filters: one GET form, so a filtered history is a URL. Without JavaScript the Apply button
 * submits it; with JavaScript every change submits at once (typing after a short pause), empty
 * fields left out of the URL, and the button hides.
 */
export function PurchaseFilters({ params, categories }: { params: PurchaseHistoryParams; categories: Category[] }) {
  const isHydrated = useHydrated();
  const submit = useSubmit();
  const pending = usePurchasesPending();
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined);

  function apply(form: HTMLFormElement) {
    clearTimeout(typing.current);
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim() !== '') query.append(key, value.trim());
    }
    void submit(query, { method: 'get', action: PURCHASES_PATH, replace: true, preventScrollReset: true });
  }

  function onChange(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    clearTimeout(typing.current);
    if ((event.target as HTMLElement).tagName === 'INPUT') {
      typing.current = setTimeout(() => apply(form), 400);
    } else {
      apply(form);
    }
  }

  return (
    <Form
      method="get"
      action={PURCHASES_PATH}
      role="search"
      aria-label="Filter purchases"
      onChange={onChange}
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget);
      }}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 lg:flex-row lg:items-end dark:border-slate-800"
    >
      <div className="relative flex-1">
        <label htmlFor="purchase-search" className="sr-only">
          Search purchases
        </label>
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
        />
        <input
          id="purchase-search"
          type="search"
          name="q"
          defaultValue={params.q ?? ''}
          key={params.q ?? ''}
          placeholder="Search purchases..."
          maxLength={100}
          className={`${FIELD} w-full pl-9 placeholder:text-slate-500 dark:placeholder:text-slate-400`}
        />
      </div>
      <FilterSelect
        id="purchase-status"
        name="status"
        label="Status"
        value={params.status}
        options={STATUS_FILTER_OPTIONS}
      />
      <FilterSelect
        id="purchase-category"
        name="category"
        label="Category"
        value={params.category}
        options={[
          { value: '', label: 'All Categories' },
          ...categories.map((category) => ({ value: category.slug, label: category.name })),
        ]}
      />
      <div className="flex items-center gap-3">
        {isHydrated ? null : (
          <button type="submit" className={buttonClass('primary', 'md', 'h-11')}>
            Apply
          </button>
        )}
        <Link to={PURCHASES_PATH} className={buttonClass('secondary', 'md', 'h-11')}>
          Clear Filters
        </Link>
        <span role="status" className={SECONDARY}>
          {pending ? 'Updating…' : ''}
        </span>
      </div>
    </Form>
  );
}

function FilterSelect({
  id,
  name,
  label,
  value,
  options,
}: {
  id: string;
  name: string;
  label: string;
  value: string | null;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ''} key={value ?? ''} className={FIELD}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function PurchaseStatusBadge({ status }: { status: PurchaseStatus }) {
  const Icon = STATUS_ICON[status];
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONE_CLASS[STATUS_TONE[status]]}`}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {statusLabel(status)}
    </span>
  );
}

/** A green or grey dot with its meaning for screen readers. */
export function OnlineDot({ online }: { online: boolean }) {
  return (
    <span className="inline-flex items-center">
      <span
        aria-hidden="true"
        className={`inline-block size-2.5 rounded-full ${online ? 'bg-green-500' : 'bg-slate-400 dark:bg-slate-500'}`}
      />
      <span className="sr-only">{online ? 'Online' : 'Offline'}</span>
    </span>
  );
}

interface RowLinks {
  /** The Contact Seller link: this page's URL with `contact=<purchase id>`. */
  contactHref: string;
  /** This page's URL without the dialog, for Rate Agent to come back to. */
  returnTo: string;
}

export function PurchaseItem({ purchase, contactHref, returnTo }: { purchase: PurchaseRow } & RowLinks) {
  const titleId = `purchase-${purchase.id}-name`;
  const completed = purchase.status === 'completed';
  return (
    <li>
      <article
        aria-labelledby={titleId}
        className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 sm:flex-row dark:border-slate-800"
      >
        <img
          src={agentPicture({
            id: purchase.agentId,
            name: purchase.agentName,
            category: purchase.category,
            thumbnailUrl: purchase.thumbnailUrl,
          })}
          alt=""
          width={96}
          height={72}
          loading="lazy"
          className="h-18 w-24 shrink-0 rounded-lg object-cover"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <h2 id={titleId} className="text-lg font-semibold">
                {purchase.agentName}
              </h2>
              <p className={`${SECONDARY} line-clamp-2`}>{purchase.agentDescription}</p>
            </div>
            <PurchaseStatusBadge status={purchase.status} />
          </div>
          {purchase.status === 'refunded' && purchase.statusReason ? (
            <p className="text-sm text-blue-800 dark:text-blue-300">Refund reason: {purchase.statusReason}</p>
          ) : null}
          <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3 xl:grid-cols-6">
            <Fact label="Seller">
              <span className="inline-flex items-center gap-1.5">
                <OnlineDot online={purchase.sellerOnline} />
                {purchase.sellerName}
              </span>
            </Fact>
            <Fact label="Amount">{formatMoney(purchase.amount)}</Fact>
            <Fact label="Purchased">{purchase.purchasedOn}</Fact>
            <Fact label="Downloads">{downloadCountLabel(purchase.downloadCount)}</Fact>
            {purchase.lastDownloadedOn ? <Fact label="Last downloaded">{purchase.lastDownloadedOn}</Fact> : null}
            <Fact label="Your rating">
              {purchase.rating ? (
                <AgentStars rating={purchase.rating} size="text-sm" />
              ) : (
                <span className="text-slate-700 dark:text-slate-300">Not rated</span>
              )}
            </Fact>
          </dl>
          <div className="flex flex-wrap gap-2 pt-1">
            {completed ? (
              <>
                <a
                  href={`/agent/${purchase.agentId}`}
                  target="_blank"
                  rel="noopener"
                  className={buttonClass('secondary', 'sm')}
                >
                  <ExternalLink aria-hidden="true" className="size-4" />
                  Quick Access<span className="sr-only"> to {purchase.agentName} (opens in a new tab)</span>
                </a>
                <a href={agentDownloadHref(purchase.agentId)} className={buttonClass('primary', 'sm')}>
                  <Download aria-hidden="true" className="size-4" />
                  Download<span className="sr-only"> {purchase.agentName}</span>
                </a>
              </>
            ) : null}
            {purchase.sellerId ? (
              <Link
                id={`contact-${purchase.id}`}
                to={contactHref}
                preventScrollReset
                className={buttonClass('secondary', 'sm')}
              >
                <MessageSquare aria-hidden="true" className="size-4" />
                Contact Seller<span className="sr-only"> of {purchase.agentName}</span>
              </Link>
            ) : null}
            {completed && !purchase.rating ? (
              <a href={agentReviewHref(purchase.agentId, returnTo)} className={buttonClass('secondary', 'sm')}>
                <Star aria-hidden="true" className="size-4" />
                Rate Agent<span className="sr-only"> {purchase.agentName}</span>
              </a>
            ) : null}
          </div>
        </div>
      </article>
    </li>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-700 dark:text-slate-300">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

export function EmptyPurchases({ filtered }: { filtered: boolean }) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
      <Receipt aria-hidden="true" className="size-10 text-slate-500 dark:text-slate-400" />
      <h2 className="mt-4 text-xl font-semibold">No purchases found</h2>
      <p className={`mt-2 ${SECONDARY}`}>
        {filtered ? 'Try adjusting your search or filters.' : 'You have not bought any agents yet.'}
      </p>
      {filtered ? (
        <Link to={PURCHASES_PATH} className={`${buttonClass('primary')} mt-6`}>
          Clear Filters
        </Link>
      ) : (
        <Link to="/marketplace" className={`${buttonClass('primary')} mt-6`}>
          Browse Marketplace
        </Link>
      )}
    </div>
  );
}

/**
 * Contact Seller, open while the URL has `contact=<purchase id>`: drawn by the server, so it
 * works without JavaScript; Close is a link to the same URL without it.
 */
export function ContactSellerDialog({
  contact,
  buyerName,
  closeHref,
}: {
  contact: SellerContact;
  buyerName: string;
  closeHref: string;
}) {
  const responds = responseTimeLabel(contact.responseHours);
  const draft = (message?: string) =>
    contactDraft({
      agentName: contact.agentName,
      sellerName: contact.sellerName,
      buyerName,
      purchasedOn: contact.purchasedOn,
      message,
    });
  const email = contact.email;

  return (
    <UrlDialog
      title="Contact Seller"
      titleId="contact-seller-title"
      describedBy="contact-seller-about"
      closeHref={closeHref}
      closeLabel="Close dialog"
      returnFocusId={`contact-${contact.purchaseId}`}
      width="max-w-lg"
    >
      <p id="contact-seller-about" className={`mt-1 ${SECONDARY}`}>
        About {contact.agentName}, purchased {contact.purchasedOn}
      </p>

      <div className="mt-5 flex items-center gap-3 rounded-xl bg-slate-50 p-4 dark:bg-slate-800">
        <Avatar name={contact.sellerName} url={contact.pictureUrl} size="md" />
        <div>
          <p className="font-semibold">{contact.sellerName}</p>
          <p className="flex items-center gap-1.5 text-sm text-slate-700 dark:text-slate-300">
            <span
              aria-hidden="true"
              className={`inline-block size-2.5 rounded-full ${contact.online ? 'bg-green-500' : 'bg-slate-400 dark:bg-slate-500'}`}
            />
            {contact.online ? 'Online' : 'Offline'}
            {responds ? <span> · {responds}</span> : null}
          </p>
        </div>
      </div>

      <SellerContactLinks
        email={email}
        phone={contact.phone}
        website={contact.website}
        label={`How to reach ${contact.sellerName}`}
        className="mt-4"
      />

      <h3 className="mt-6 text-sm font-semibold">Quick messages</h3>
      {email ? (
        <ul className="mt-2 flex flex-col gap-2">
          {QUICK_MESSAGES.map((message) => (
            <li key={message}>
              <a
                href={mailtoHref(email, draft(message))}
                className="block rounded-lg border border-slate-200 px-3 py-2 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
              >
                {message}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <>
          <ul className="mt-2 flex flex-col gap-2">
            {QUICK_MESSAGES.map((message) => (
              <li
                key={message}
                className="rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:text-slate-300"
              >
                {message}
              </li>
            ))}
          </ul>
          <p className="mt-3 text-sm font-medium">This seller does not share an email address.</p>
        </>
      )}

      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Link to={closeHref} preventScrollReset className={buttonClass('secondary')}>
          Close
        </Link>
        {email ? (
          <a href={mailtoHref(email, draft())} className={buttonClass('primary')}>
            <Mail aria-hidden="true" className="size-4" />
            Send Email
          </a>
        ) : null}
      </div>
    </UrlDialog>
  );
}

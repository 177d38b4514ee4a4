/** One purchase in Purchase History, its status and the empty list. */
import { agentPicture } from '~/lib/agent-artwork';
import {
  CheckCircle,
  Clock,
  Download,
  ExternalLink,
  MessageSquare,
  Receipt,
  RotateCcw,
  Star,
  XCircle,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { AgentStars } from '~/components/agents/agent-stars';
import { buttonClass } from '~/components/ui/button';
import { formatMoney } from '~/lib/dashboard-format';
import { STATUS_TONE, TONE_CLASS, statusLabel, type PurchaseStatus } from '~/lib/membership';
import {
  PURCHASES_PATH,
  agentDownloadHref,
  agentReviewHref,
  downloadCountLabel,
  type PurchaseRow,
} from '~/lib/purchase-history';
import { useStoredImage } from '~/lib/use-stored-image';

const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

const STATUS_ICON: Record<PurchaseStatus, LucideIcon> = {
  completed: CheckCircle,
  pending: Clock,
  failed: XCircle,
  refunded: RotateCcw,
};

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
  const storedImage = useStoredImage();
  return (
    <li>
      <article
        aria-labelledby={titleId}
        className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 sm:flex-row dark:border-slate-800"
      >
        <img
          src={storedImage(
            agentPicture({
              id: purchase.agentId,
              name: purchase.agentName,
              category: purchase.category,
              thumbnailUrl: purchase.thumbnailUrl,
            }),
          )}
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

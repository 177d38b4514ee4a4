import { agentPicture, cardPictureLoading } from '~/lib/agent-artwork';
/**
 * My Collection: the cards of the buyer's completed purchases, the empty
 * state, and the six skeleton cards the dashboard layout shows while a client-side navigation
 * to the page loads.
 */
import { Download, PackageOpen, Star } from 'lucide-react';
import { Link } from 'react-router';
import { AgentStars } from '~/components/agents/agent-stars';
import { EAGER_CARDS, SkeletonList } from '~/components/marketplace/results';
import { EmptyState } from '~/components/page-states';
import { buttonClass } from '~/components/ui/button';
import { COLLECTION_PATH, downloadHref, reviewHref, type CollectionItem } from '~/lib/collection';
import { DELETED_ACCOUNT, formatMoney } from '~/lib/dashboard-format';
import { useStoredImage } from '~/lib/use-stored-image';

export const COLLECTION_SKELETON_COUNT = 6;

export function CollectionHeader({ children }: { children?: React.ReactNode }) {
  return (
    <header>
      <h1 className="text-3xl font-bold">My Collection</h1>
      {children}
    </header>
  );
}

/** `returnTo`: the page the rating form comes back to (the collection's current page). */
export function CollectionGrid({ items, returnTo = COLLECTION_PATH }: { items: CollectionItem[]; returnTo?: string }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3">
      {items.map((item, index) => (
        <li key={item.purchaseId} className="flex">
          <CollectionCard item={item} returnTo={returnTo} eager={index < EAGER_CARDS} />
        </li>
      ))}
    </ul>
  );
}

function CollectionCard({ item, returnTo, eager }: { item: CollectionItem; returnTo: string; eager: boolean }) {
  const seller = item.sellerName ?? DELETED_ACCOUNT;
  const storedImage = useStoredImage();
  return (
    <article className="flex w-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <img
        src={storedImage(agentPicture({ ...item, id: item.agentId }))}
        alt={`${item.name} thumbnail`}
        width={400}
        height={225}
        {...cardPictureLoading(eager)}
        className="aspect-video w-full object-cover"
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 className="font-semibold">
          <Link
            to={`/agent/${item.agentId}`}
            className="hover:text-brand-700 hover:underline dark:hover:text-brand-300"
          >
            {item.name}
          </Link>
        </h2>
        {item.rating !== null ? (
          <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
            Your rating <AgentStars rating={item.rating} />
          </p>
        ) : null}
        <p className="line-clamp-2 text-sm text-slate-700 dark:text-slate-300">{item.description}</p>
        <p className="text-sm text-slate-800 dark:text-slate-200">by {seller}</p>
        <dl className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-2 text-sm">
          <div>
            <dt className="sr-only">Category</dt>
            <dd className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-200">
              {item.category}
            </dd>
          </div>
          <div className="flex gap-1 text-slate-700 dark:text-slate-300">
            <dt>Purchased</dt>
            <dd>{item.purchasedOn}</dd>
          </div>
          <div className="ml-auto">
            <dt className="sr-only">Amount paid</dt>
            <dd className="font-bold text-brand-700 dark:text-brand-300">{formatMoney(item.amount)}</dd>
          </div>
        </dl>
        <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-3 dark:border-slate-800">
          {/* A plain link: the download is a file answered by the server, not a page. */}
          <a
            href={downloadHref(item.agentId)}
            aria-label={`Download ${item.name}`}
            className={buttonClass('primary', 'sm', 'flex-1')}
          >
            <Download aria-hidden="true" className="size-4" /> Download
          </a>
          {item.rating === null ? (
            <Link
              to={reviewHref(item.agentId, returnTo)}
              aria-label={`Rate ${item.name}`}
              className={buttonClass('secondary', 'sm', 'flex-1')}
            >
              <Star aria-hidden="true" className="size-4" /> Rate
            </Link>
          ) : null}
        </div>
      </div>
    </article>
  );
}

export function EmptyCollection() {
  return (
    <EmptyState
      icon={<PackageOpen aria-hidden="true" className="size-10" />}
      title="No agents in your collection yet"
      message="Agents you buy appear here, ready to download and rate."
    >
      <Link to="/marketplace" className={`${buttonClass('primary')} mt-6`}>
        Browse Marketplace
      </Link>
    </EmptyState>
  );
}

/** What the layout shows while a client-side navigation loads the collection. */
export function CollectionSkeleton() {
  return (
    <div className="flex flex-col gap-6">
      <CollectionHeader>
        <p className="mt-1 text-slate-700 dark:text-slate-300">Loading your collection…</p>
      </CollectionHeader>
      <SkeletonList view="grid" count={COLLECTION_SKELETON_COUNT} label="Loading your collection" />
    </div>
  );
}

import { agentPicture, cardPictureLoading } from '~/lib/agent-artwork';
/**
 * My Collection: the cards of the buyer's completed purchases, the empty
 * state, and the six skeleton cards the dashboard layout shows while a client-side navigation
 * to the page loads.
 */
import { Download, KeyRound, PackageOpen, Star } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { SubmitButton } from '~/components/ui/submit-button';
import { activationsLine, type LicenseView } from '~/lib/licenses';
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
        {item.updateVersion ? (
          <p className="w-fit rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-900 dark:bg-brand-900 dark:text-brand-100">
            {`Update available: version ${item.updateVersion}`}
          </p>
        ) : null}
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
        {item.license ? <LicensePanel item={item} license={item.license} /> : null}
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

/**
 * The purchase's licence key (ADR 073): the key to paste into the agent, its activations with a
 * reset, and, when the seller disabled it, why.
 */
function LicensePanel({ item, license }: { item: CollectionItem; license: LicenseView }) {
  const navigation = useNavigation();
  const resetting = navigation.formData?.get('licenseId') === license.id;
  return (
    <div className="flex flex-col gap-1 text-sm">
      {license.disabledReason ? (
        <p className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100">
          {`The seller disabled this licence: ${license.disabledReason}`}
        </p>
      ) : null}
      <details className="group">
        <summary className="cursor-pointer font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
          <KeyRound aria-hidden="true" className="mr-1 inline size-4" />
          Licence key<span className="sr-only"> for {item.name}</span>
        </summary>
        <div className="mt-2 flex flex-col gap-2">
          <code className="rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all select-all dark:bg-slate-800">
            {license.key}
          </code>
          <p className="text-slate-700 dark:text-slate-300">{activationsLine(license.uses, license.maxUses)}</p>
          {license.uses > 0 ? (
            license.resetAgainOn ? (
              <p className="text-slate-700 dark:text-slate-300">
                You can reset the activations again on {license.resetAgainOn}.
              </p>
            ) : (
              <Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value="reset-activations" />
                <input type="hidden" name="licenseId" value={license.id} />
                <SubmitButton pending={resetting} variant="secondary" size="sm">
                  Reset activations<span className="sr-only"> of {item.name}</span>
                </SubmitButton>
              </Form>
            )
          ) : null}
        </div>
      </details>
    </div>
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

import { agentPicture, cardPictureLoading } from '~/lib/agent-artwork';
import { Clock, Star } from 'lucide-react';
import { Link } from 'react-router';
import { NO_REVIEWS_YET, formatPrice, formatRating, type AgentSummary } from '~/lib/agents';
import { AddToCartForm } from '~/components/agents/add-to-cart';
import { SellerLink } from '~/components/agents/seller-link';
import { Avatar } from '~/components/ui/avatar';
import { profileOpenTo } from '~/lib/sellers';
import { useOptionalViewer } from '~/lib/use-viewer';
import { useStoredImage } from '~/lib/use-stored-image';
import { pluralize } from '~/lib/plural';
import { formatAgo } from '~/lib/dashboard-format';

/**
 * The agent card (docs/product.md, "Public pages"), in grid or list layout. The whole card links to the agent page. `eager`:
 * the picture is in the first screen (the first cards of a list), the page's largest paint
 * (`cardPictureLoading`).
 */
export function AgentCard({
  agent,
  view = 'grid',
  eager = false,
  cartReturnTo,
}: {
  agent: AgentSummary;
  view?: 'grid' | 'list';
  eager?: boolean;
  /** Offers Add to cart, coming back to this path (the marketplace's results). */
  cartReturnTo?: string;
}) {
  const viewer = useOptionalViewer();
  const signedIn = viewer !== null;
  const canAdd = cartReturnTo !== undefined && viewer?.username !== agent.sellerUsername;
  const rating = formatRating(agent.avgRating, agent.reviewCount);
  const isList = view === 'list';
  const storedImage = useStoredImage();
  return (
    <article
      className={`group relative flex overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md dark:border-slate-700 dark:bg-slate-900 ${
        isList ? 'flex-row' : 'flex-col'
      }`}
    >
      <img
        src={storedImage(agentPicture(agent))}
        alt={`${agent.name} thumbnail`}
        width={isList ? 160 : 400}
        height={isList ? 120 : 225}
        {...cardPictureLoading(eager)}
        className={isList ? 'h-auto w-40 shrink-0 object-cover' : 'aspect-video w-full object-cover'}
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-3">
          <h3 className="font-semibold">
            <Link
              to={`/agent/${agent.id}`}
              className="after:absolute after:inset-0 hover:text-brand-700 dark:hover:text-brand-300"
            >
              {agent.name}
            </Link>
          </h3>
          <p className="shrink-0 font-bold text-brand-700 dark:text-brand-300" data-testid="agent-price">
            {formatPrice(agent.price)}
          </p>
        </div>
        <p className="line-clamp-2 text-sm text-slate-700 dark:text-slate-300">{agent.description}</p>
        <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-2 pt-2 text-sm">
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-200">
            {agent.category}
          </span>
          <span className="flex items-center gap-1.5">
            <Avatar name={agent.sellerName ?? 'Seller'} url={agent.sellerAvatar} size="xs" />
            {/* Above the card's own link (its ::after covers the card), so it is a link of its own. */}
            <SellerLink
              username={agent.sellerUsername}
              name={agent.sellerName}
              linked={profileOpenTo(agent.sellerVisibility ?? 'public', signedIn)}
              className="relative z-10 text-slate-800 dark:text-slate-200"
            />
          </span>
          {rating === null ? (
            <span className="text-slate-600 dark:text-slate-400">{NO_REVIEWS_YET}</span>
          ) : (
            <span
              className="flex items-center gap-1"
              aria-label={`Rated ${rating} out of 5 from ${pluralize(agent.reviewCount, 'review')}`}
            >
              <Star aria-hidden="true" className="size-4 fill-amber-400 text-amber-500" />
              <span className="font-medium">{rating}</span>
              <span className="text-slate-600 dark:text-slate-400">({agent.reviewCount})</span>
            </span>
          )}
        </div>
        {canAdd ? (
          <AddToCartForm
            agentId={agent.id}
            agentName={agent.name}
            returnTo={cartReturnTo}
            size="sm"
            className="relative z-10 pt-1"
          />
        ) : null}
        {isList ? null : (
          <div className="flex items-center justify-between border-t border-slate-100 pt-2 text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400">
            <span>{pluralize(agent.reviewCount, 'review')}</span>
            {agent.lastVersionAt ? (
              <span className="flex items-center gap-1" suppressHydrationWarning>
                <Clock aria-hidden="true" className="size-3" /> Updated {formatAgo(agent.lastVersionAt)}
              </span>
            ) : null}
          </div>
        )}
      </div>
    </article>
  );
}

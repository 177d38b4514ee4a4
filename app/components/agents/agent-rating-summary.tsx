import { NO_REVIEWS_YET, formatRating } from '~/lib/agents';
import { ratingBucketLabel, reviewCountLabel, type RatingBucket } from '~/lib/agent-detail';
import { AgentStars } from './agent-stars';
import { pluralize } from '~/lib/plural';

/** The average rating (none before the first review) and how many reviews gave each star. */
export function AgentRatingSummary({
  avgRating,
  reviewCount,
  distribution,
}: {
  avgRating: number | null;
  reviewCount: number;
  distribution: readonly RatingBucket[];
}) {
  const rating = formatRating(avgRating, reviewCount);
  return (
    <div className="flex flex-col gap-6 sm:flex-row sm:items-center">
      <div className="flex flex-col items-start gap-1">
        {rating === null ? (
          <p className="text-xl font-semibold">{NO_REVIEWS_YET}</p>
        ) : (
          <>
            <p className="text-4xl font-bold">{rating}</p>
            <AgentStars rating={Number(rating)} size="text-xl" />
          </>
        )}
        <p className="text-sm text-slate-700 dark:text-slate-300">{reviewCountLabel(reviewCount)}</p>
      </div>
      <ul className="flex w-full max-w-sm flex-col gap-1.5" aria-label="Ratings by stars">
        {distribution.map((bucket) => (
          <li key={bucket.stars} className="flex items-center gap-2 text-sm">
            <span className="sr-only">{ratingBucketLabel(bucket)}</span>
            <span aria-hidden="true" className="w-12 shrink-0 text-slate-700 dark:text-slate-300">
              {pluralize(bucket.stars, 'star')}
            </span>
            <span aria-hidden="true" className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
              <span className="block h-full rounded-full bg-amber-500" style={{ width: `${bucket.percent}%` }} />
            </span>
            <span aria-hidden="true" className="w-6 shrink-0 text-right text-slate-700 dark:text-slate-300">
              {bucket.count}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

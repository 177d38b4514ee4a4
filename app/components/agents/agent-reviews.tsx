import { Pager } from '~/components/ui/pager';
import { formatReviewDate, REVIEWS_PAGE_PARAM, type AgentReview, type ReviewPaging } from '~/lib/agent-detail';
import { AgentStars } from './agent-stars';
import { ReviewReplyBlock } from './review-reply';

/** One page of reviews, newest first, with links to the other pages (plain links: no JS needed). */
export function AgentReviews({
  reviews,
  paging,
}: {
  reviews: readonly AgentReview[];
  paging: Pick<ReviewPaging, 'page' | 'pageCount'>;
}) {
  if (reviews.length === 0) {
    return (
      <p className="text-slate-700 dark:text-slate-300">
        No reviews yet. Buyers who purchase this agent can leave the first review.
      </p>
    );
  }
  return (
    <>
      <ol className="flex flex-col divide-y divide-slate-200 dark:divide-slate-700">
        {reviews.map((review) => (
          <li key={review.id} className="py-4">
            <article aria-label={`Review by ${review.username}`} className="flex flex-col gap-1.5">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-semibold">{review.username}</span>
                <AgentStars rating={review.rating} />
                <time dateTime={review.createdAt} className="text-sm text-slate-700 dark:text-slate-300">
                  {formatReviewDate(review.createdAt)}
                </time>
              </div>
              {review.text ? <p className="text-slate-800 dark:text-slate-200">{review.text}</p> : null}
              {review.reply ? <ReviewReplyBlock reply={review.reply} label="Response from the seller" /> : null}
            </article>
          </li>
        ))}
      </ol>
      <Pager
        label="Review pages"
        page={paging.page}
        pageCount={paging.pageCount}
        pageName={REVIEWS_PAGE_PARAM}
        hash="#reviews"
        previousLabel="Newer reviews"
        nextLabel="Older reviews"
      />
    </>
  );
}

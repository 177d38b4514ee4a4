/**
 * /dashboard/reviews (respond_to_reviews): the reviews of the seller's agents, newest first and
 * paged (`?page=`), each with the seller's one public reply, written, edited or deleted through a
 * POST form that opens through the URL (`?reply=<reviewId>`), so it works without JavaScript;
 * with JavaScript it posts through a fetcher. The reply shows under the review on the agent page.
 */
import { MessageSquare } from 'lucide-react';
import { useId } from 'react';
import { Link, useFetcher } from 'react-router';
import { AgentStars } from '~/components/agents/agent-stars';
import { ReviewReplyBlock } from '~/components/agents/review-reply';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { EmptyState } from '~/components/page-states';
import { buttonClass } from '~/components/ui/button';
import { FormMessage, Labelled, TEXT_AREA_CLASS } from '~/components/ui/field';
import { Pager } from '~/components/ui/pager';
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatDate } from '~/lib/dashboard-format';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { useHrefWith } from '~/lib/href-with';
import { errorMeta, pageMeta } from '~/lib/meta';
import { parseIdParam } from '~/schemas/admin';
import { MAX_REPLY_LENGTH } from '~/schemas/review-reply';
import { pageParam } from '~/lib/pagination';
import { requireSection } from '~/server/guards.server';
import { listSellerReviews, replyAction, type SellerReviewRow } from '~/server/review-replies.server';
import type { Route } from './+types/reviews';
import { SubmitButton } from '~/components/ui/submit-button';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const params = args.url.searchParams;
  const reviews = await listSellerReviews(args.context.get(supabaseContext), {
    sellerId: viewer.id,
    page: pageParam(params.get('page')),
  });
  return {
    reviews,
    openReply: parseIdParam(params.get('reply')),
    timeZone: timeZoneFromCookieHeader(args.request.headers.get('cookie')),
  };
}

export const action = (args: Route.ActionArgs) => replyAction(args);

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Reviews', 'Read the reviews of your agents and answer them publicly.');

export default function ReviewsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { reviews, openReply, timeZone } = loaderData;
  const hrefWith = useHrefWith();
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Reviews</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          The reviews of your agents, newest first. Answer each once; your reply appears under the review on the
          agent&apos;s page.
        </p>
      </header>
      {reviews.total === 0 ? (
        <EmptyState
          icon={<MessageSquare aria-hidden="true" className="size-10" />}
          title="No reviews yet"
          message="When buyers review your agents, their reviews appear here for you to answer."
        />
      ) : (
        <section aria-labelledby="reviews-list" className="flex flex-col gap-3">
          <h2 id="reviews-list" className="text-xl font-semibold">
            Reviews of your agents ({reviews.total})
          </h2>
          <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
            {reviews.rows.map((review) => (
              <li key={review.id} aria-label={`${review.agentName}, reviewed by ${review.author}`} className="p-4">
                <ReviewSummary review={review} timeZone={timeZone} />
                {openReply === review.id ? (
                  <ReplyForm
                    review={review}
                    action={hrefWith({ reply: review.id })}
                    cancelHref={hrefWith({ reply: null })}
                    result={fieldValue(actionData, 'reviewId') === review.id ? actionData : null}
                  />
                ) : (
                  <Link
                    to={hrefWith({ reply: review.id })}
                    preventScrollReset
                    className={`${buttonClass('secondary', 'sm')} mt-3`}
                  >
                    {review.reply ? 'Edit reply' : 'Reply'}
                    <span className="sr-only"> to {review.author}</span>
                  </Link>
                )}
              </li>
            ))}
          </ul>
          <Pager
            label="Review pages"
            page={reviews.page}
            pageCount={reviews.pageCount}
            clear={['reply']}
            previousLabel="Newer"
            nextLabel="Older"
          />
        </section>
      )}
    </div>
  );
}

function ReviewSummary({ review, timeZone }: { review: SellerReviewRow; timeZone: string }) {
  return (
    <article aria-label={`Review by ${review.author}`}>
      <p className="font-semibold">
        <Link to={`/agent/${review.agentId}#reviews`} className="hover:underline">
          {review.agentName}
        </Link>
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="font-medium">{review.author}</span>
        <AgentStars rating={review.rating} />
        <time dateTime={review.createdAt} className="text-slate-700 dark:text-slate-300">
          {formatDate(review.createdAt, timeZone)}
        </time>
      </div>
      {review.text ? (
        <p className="mt-1 whitespace-pre-line text-slate-800 dark:text-slate-200">{review.text}</p>
      ) : null}
      {review.reply ? <ReviewReplyBlock reply={review.reply} label="Your reply" /> : null}
    </article>
  );
}

function ReplyForm({
  review,
  action,
  cancelHref,
  result,
}: {
  review: SellerReviewRow;
  action: string;
  cancelHref: string;
  result: FormResult | null | undefined;
}) {
  const fetcher = useFetcher<FormResult>();
  const current = fetcher.data ?? result;
  const notice = formNotice(current);
  const busy = fetcher.state !== 'idle';
  const id = useId();
  const error = fieldError(current, 'reply');
  return (
    <fetcher.Form
      method="post"
      action={action}
      aria-labelledby={`${id}-title`}
      className="mt-3 space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-900"
    >
      <h3 id={`${id}-title`} className="font-semibold">
        Reply to {review.author} about {review.agentName}
      </h3>
      {notice ? <FormMessage {...notice} /> : null}
      <input type="hidden" name="reviewId" value={review.id} />
      <Labelled
        label="Your public reply"
        hint={`Up to ${MAX_REPLY_LENGTH.toLocaleString('en-US')} characters. Everyone sees it under the review on the agent's page.`}
        error={error}
      >
        {(links) => (
          <textarea
            {...links}
            name="reply"
            required
            maxLength={MAX_REPLY_LENGTH}
            rows={4}
            defaultValue={fieldValue(current, 'reply') ?? review.reply?.text ?? ''}
            className={TEXT_AREA_CLASS}
          />
        )}
      </Labelled>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton name="intent" value="save" pending={busy} size="sm">
          {review.reply ? 'Update reply' : 'Publish reply'}
        </SubmitButton>
        {review.reply ? (
          <button
            type="submit"
            name="intent"
            value="delete"
            formNoValidate
            disabled={busy}
            className={buttonClass('danger', 'sm')}
          >
            Delete reply
          </button>
        ) : null}
        <Link to={cancelHref} preventScrollReset className={buttonClass('ghost', 'sm')}>
          Cancel
        </Link>
      </div>
    </fetcher.Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import { formatReviewDate } from '~/lib/agent-detail';

export interface ReviewReplyView {
  text: string;
  /** The last edit (the first writing when never edited). */
  updatedAt: string;
}

/**
 * The seller's public reply under a review: on the agent page ('Response from the seller') and
 * on the seller's /dashboard/reviews ('Your reply'), with its date.
 */
export function ReviewReplyBlock({ reply, label }: { reply: ReviewReplyView; label: string }) {
  return (
    <section
      aria-label={label}
      className="mt-2 rounded-lg border-l-4 border-indigo-300 bg-slate-50 px-4 py-3 dark:border-indigo-500 dark:bg-slate-900"
    >
      <p className="text-sm font-semibold">
        {label}{' '}
        <span className="font-normal text-slate-700 dark:text-slate-300">
          · <time dateTime={reply.updatedAt}>{formatReviewDate(reply.updatedAt)}</time>
        </span>
      </p>
      <p className="mt-1 whitespace-pre-line text-slate-800 dark:text-slate-200">{reply.text}</p>
    </section>
  );
}

/**
 * The rating form: 1 to 5 stars as radio buttons in a fieldset,
 * an optional review, Save. A POST form that works without JavaScript; after an error it comes
 * back with what was chosen and typed, the messages beside their fields.
 */
import { Fragment } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { FormMessage } from '~/components/ui/field';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { MAX_REVIEW_LENGTH, RATING_VALUES, starLabel } from '~/schemas/review';
import { SubmitButton } from '~/components/ui/submit-button';

const RATING_ERROR_ID = 'rating-error';
const REVIEW_HINT_ID = 'review-hint';
const REVIEW_ERROR_ID = 'review-error';

export function ReviewForm({
  action,
  current,
  cancelHref,
  result,
}: {
  action: string;
  /** The buyer's saved review, when they rated before (the form then edits it). */
  current: { rating: number; text: string } | null;
  cancelHref: string;
  result: FormResult | null | undefined;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formAction === action;
  // After a failed submission: what was sent; else the saved review.
  const rating = result ? fieldValue(result, 'rating') : current ? String(current.rating) : undefined;
  const review = result ? (fieldValue(result, 'review') ?? '') : (current?.text ?? '');
  const ratingError = fieldError(result, 'rating');
  const reviewError = fieldError(result, 'review');
  const notice = formNotice(result);
  return (
    <Form method="post" action={action} className="flex flex-col gap-6">
      {notice ? <FormMessage {...notice} /> : null}
      <fieldset>
        <legend className="text-sm font-medium">Your rating</legend>
        <div className="star-choice mt-2 flex text-4xl">
          {RATING_VALUES.map((stars) => (
            <Fragment key={stars}>
              <input
                type="radio"
                id={`rating-${stars}`}
                name="rating"
                value={stars}
                defaultChecked={rating === String(stars)}
                aria-describedby={ratingError ? RATING_ERROR_ID : undefined}
                className="sr-only"
              />
              <label htmlFor={`rating-${stars}`}>
                <span aria-hidden="true">★</span>
                <span className="sr-only">{starLabel(stars)}</span>
              </label>
            </Fragment>
          ))}
        </div>
        {ratingError ? (
          <p id={RATING_ERROR_ID} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {ratingError}
          </p>
        ) : null}
      </fieldset>
      <div>
        <label htmlFor="review" className="block text-sm font-medium">
          Your review (optional)
        </label>
        <textarea
          id="review"
          name="review"
          rows={6}
          maxLength={MAX_REVIEW_LENGTH}
          defaultValue={review}
          aria-invalid={reviewError ? true : undefined}
          aria-describedby={reviewError ? `${REVIEW_HINT_ID} ${REVIEW_ERROR_ID}` : REVIEW_HINT_ID}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950"
        />
        <p id={REVIEW_HINT_ID} className="mt-1 text-xs text-slate-700 dark:text-slate-300">
          Up to {MAX_REVIEW_LENGTH.toLocaleString('en-US')} characters. Shown on the agent page with your username.
        </p>
        {reviewError ? (
          <p id={REVIEW_ERROR_ID} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {reviewError}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={saving} pendingLabel="Saving...">
          Save
        </SubmitButton>
        <Link to={cancelHref} className={buttonClass('secondary', 'md')}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}

import { redirect } from 'react-router';
import { z } from 'zod';
import { clientAddressContext, connectionContext } from '~/context';
import { fieldValue } from '~/lib/form-result';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, formSuccess, parseForm } from '~/server/forms.server';
import { formWindows, newsletterRateLimitByAddress, RATE_LIMIT_MESSAGE } from '~/server/rate-limit.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/newsletter';

const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address.';

const NewsletterSchema = z.object({
  email: z
    .string(INVALID_EMAIL_MESSAGE)
    .trim()
    .toLowerCase()
    .pipe(z.email(INVALID_EMAIL_MESSAGE).max(254, INVALID_EMAIL_MESSAGE)),
});

export const SUBSCRIBED_MESSAGE = "Thanks for subscribing! You'll hear from us soon.";
const UNAVAILABLE_MESSAGE = 'We could not subscribe you right now. Please try again later.';

/**
 * Stores a validated address. The Data API roles cannot write newsletter_subscribers (when
 * they could, one anonymous request inserted 200,000 rows), so this trusted server code writes it with the
 * service role, one row per request, behind the per-address rate limit of the action.
 */
async function subscribe(context: Route.ActionArgs['context'], email: string): Promise<boolean> {
  try {
    const { error } = await createServiceSupabase(context.get(connectionContext))
      .from('newsletter_subscribers')
      .insert({ email });
    // A repeated address (unique violation) is already subscribed: same friendly answer.
    if (!error || error.code === '23505') return true;
    console.error('Newsletter subscription failed:', error.message);
  } catch (error) {
    // e.g. SUPABASE_SERVICE_ROLE_KEY missing on a hosted deployment.
    console.error('Newsletter subscription failed:', error instanceof Error ? error.message : error);
  }
  return false;
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const redirectTo = formData.get('redirectTo');
  const submission = parseForm(formData, NewsletterSchema);

  let response;
  const limit = await newsletterRateLimitByAddress.consume(formWindows(context), [context.get(clientAddressContext)]);
  if (!limit.allowed) {
    const headers = { 'Retry-After': String(limit.retryAfterSeconds) };
    response = formError(submission, { message: RATE_LIMIT_MESSAGE, status: 429, headers });
  } else if (submission.status !== 'success') {
    response = formError(submission);
  } else if (await subscribe(context, submission.value.email)) {
    response = formSuccess(submission, SUBSCRIBED_MESSAGE);
  } else {
    response = formError(submission, { message: UNAVAILABLE_MESSAGE, status: 503 });
  }

  // Without JavaScript the form names the page to return to; the result rides in a flash cookie.
  if (typeof redirectTo === 'string') {
    const result = response.data;
    return redirectWithFlash(request, safeRedirectPath(redirectTo), {
      kind: result.ok ? 'success' : 'error',
      message: result.message ?? '',
      scope: 'newsletter',
      values: result.ok ? undefined : { email: fieldValue(result, 'email') ?? '' },
    });
  }
  return response;
}

export function loader() {
  return redirect('/');
}

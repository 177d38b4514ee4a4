import { data, redirect } from 'react-router';
import { z } from 'zod';
import { clientAddressContext, connectionContext } from '~/context';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { setFlash } from '~/server/cookies.server';
import { newsletterRateLimitByAddress, RATE_LIMIT_MESSAGE } from '~/server/rate-limit.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/newsletter';

const NewsletterSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email('Please enter a valid email address.').max(254, 'Please enter a valid email address.')),
});

export interface NewsletterResult {
  ok: boolean;
  message: string;
  email: string;
}

export const SUBSCRIBED_MESSAGE = "Thanks for subscribing! You'll hear from us soon.";
const UNAVAILABLE_MESSAGE = 'We could not subscribe you right now. Please try again later.';

/**
 * Stores a validated address. The Data API roles cannot write newsletter_subscribers (issue 18:
 * one anonymous request inserted 200,000 rows), so this trusted server code writes it with the
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
  const parsed = NewsletterSchema.safeParse({ email: formData.get('email') ?? '' });
  const email = String(formData.get('email') ?? '');

  let result: NewsletterResult;
  let status = 200;
  const headers = new Headers();
  const limit = newsletterRateLimitByAddress.consume([context.get(clientAddressContext)]);
  if (!limit.allowed) {
    result = { ok: false, message: RATE_LIMIT_MESSAGE, email };
    status = 429;
    headers.set('Retry-After', String(limit.retryAfterSeconds));
  } else if (!parsed.success) {
    result = { ok: false, message: parsed.error.issues[0]?.message ?? 'Please enter a valid email address.', email };
    status = 400;
  } else if (await subscribe(context, parsed.data.email)) {
    result = { ok: true, message: SUBSCRIBED_MESSAGE, email: parsed.data.email };
  } else {
    result = { ok: false, message: UNAVAILABLE_MESSAGE, email };
    status = 503;
  }

  if (typeof redirectTo === 'string') {
    const cookie = await setFlash(request, {
      kind: result.ok ? 'success' : 'error',
      message: result.message,
      scope: 'newsletter',
      values: result.ok ? undefined : { email },
    });
    return redirect(safeRedirectPath(redirectTo), { headers: { 'Set-Cookie': cookie } });
  }
  return data(result, { status, headers });
}

export function loader() {
  return redirect('/');
}

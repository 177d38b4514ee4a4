import { data, redirect } from 'react-router';
import { z } from 'zod';
import { supabaseContext } from '~/context';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { setFlash } from '~/server/cookies.server';
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

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const redirectTo = formData.get('redirectTo');
  const parsed = NewsletterSchema.safeParse({ email: formData.get('email') ?? '' });
  const email = String(formData.get('email') ?? '');

  let result: NewsletterResult;
  let status = 200;
  if (!parsed.success) {
    result = { ok: false, message: parsed.error.issues[0]?.message ?? 'Please enter a valid email address.', email };
    status = 400;
  } else {
    const { error } = await context
      .get(supabaseContext)
      .from('newsletter_subscribers')
      .insert({ email: parsed.data.email }, { count: undefined });
    // A repeated address (unique violation) is already subscribed: same friendly answer.
    if (error && error.code !== '23505') {
      console.error('Newsletter subscription failed:', error.message);
      result = { ok: false, message: 'We could not subscribe you right now. Please try again later.', email };
      status = 503;
    } else {
      result = { ok: true, message: SUBSCRIBED_MESSAGE, email: parsed.data.email };
    }
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
  return data(result, { status });
}

export function loader() {
  return redirect('/');
}

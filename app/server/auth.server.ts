/**
 * What the sign-in, sign-up and password routes share (their actions live in their route
 * modules under app/routes/auth/): the rate limits, the signed-in redirect, the app's origin
 * for links, and the messages other modules repeat.
 */
import { redirect, type RouterContextProvider } from 'react-router';
import type { Submission } from '@conform-to/react';
import { clientAddressContext, viewerContext } from '~/context';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError } from '~/server/forms.server';
import { publicOrigin } from '~/server/public-origin.server';
import {
  RATE_LIMIT_MESSAGE,
  authRateLimitByAddress,
  authRateLimitByEmailAndAddress,
  formWindows,
} from '~/server/rate-limit.server';

type Context = Readonly<RouterContextProvider>;

export const GOOGLE_NOT_CONFIGURED_MESSAGE = 'Google sign-in is not configured.';
export const RESET_LINK_SENT_MESSAGE =
  'If an account exists for that email, we have sent a link to reset your password. Check your inbox.';

/** The app's public origin, for links in emails and OAuth redirects (never a request header). */
export const appOrigin = publicOrigin;

/** One key per account, however the address was typed. */
export const accountKey = (email: string) => email.trim().toLowerCase();

/**
 * Hard limits per client address, and per email address *from that client address*: an email
 * alone is never a hard limit, or anyone could lock its owner out by failing on purpose
 * (the per-account protection is the delay in the sign-in action). Counted for every attempt,
 * valid or not, by every app server on the database together. Answers the 429 to return, or null.
 */
export async function authRateLimited(context: Context, submission: Submission<unknown, string[], unknown>) {
  const address = context.get(clientAddressContext);
  const email = typeof submission.payload.email === 'string' ? submission.payload.email : undefined;
  const windows = formWindows(context);
  const byAddress = await authRateLimitByAddress.consume(windows, [address]);
  const byEmail = email
    ? await authRateLimitByEmailAndAddress.consume(windows, [JSON.stringify([accountKey(email), address])])
    : byAddress;
  if (byAddress.allowed && byEmail.allowed) return null;
  const retryAfterSeconds = Math.max(byAddress.retryAfterSeconds, byEmail.retryAfterSeconds);
  return formError(submission, {
    message: RATE_LIMIT_MESSAGE,
    status: 429,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/** After signing in: to where the visitor was going (on this site only), with the flash. */
export async function signedInRedirect(request: Request, to: string | undefined, message: string) {
  return redirectWithFlash(request, safeRedirectPath(to, '/dashboard'), { kind: 'success', message });
}

/** Signed-in visitors have no business on the sign-in pages. */
export function redirectIfSignedIn({ url, context }: { url: URL; context: Context }) {
  if (!context.get(viewerContext)) return;
  const to = url.searchParams.get('redirectTo');
  throw redirect(safeRedirectPath(to, '/dashboard'));
}

/**
 * Sign-in, sign-up, password recovery and OAuth, shared by the auth routes. Every function
 * answers with a redirect (success) or `data(AuthActionResult, { status })` for the form.
 */
import { data, redirect, redirectDocument, type RouterContextProvider } from 'react-router';
import { clientAddressContext, connectionContext, supabaseContext, viewerContext } from '~/context';
import { mapAuthError, SUCCESS_MESSAGES, UNEXPECTED_ERROR } from '~/lib/auth-errors';
import type { AuthActionResult } from '~/lib/auth-result';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { EmailOnlySchema, NewPasswordSchema, SignInSchema, SignUpSchema, firstMessage } from '~/schemas/auth';
import { googleSignInAvailable } from '~/server/auth-admin.server';
import { setFlash } from '~/server/cookies.server';
import { env } from '~/server/env.server';
import { formValues } from '~/server/forms.server';
import {
  RATE_LIMIT_MESSAGE,
  authRateLimitByAddress,
  authRateLimitByEmailAndAddress,
  signInFailuresByAccount,
} from '~/server/rate-limit.server';

interface ActionArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

export const USERNAME_TAKEN_MESSAGE = 'This username is already taken. Please choose another one.';
export const GOOGLE_NOT_CONFIGURED_MESSAGE = 'Google sign-in is not configured.';
export const RESET_LINK_SENT_MESSAGE =
  'If an account exists for that email, we have sent a link to reset your password. Check your inbox.';

/** The app's public origin, for links in emails and OAuth redirects. */
export function appOrigin(request: Request): string {
  return env.APP_URL ?? new URL(request.url).origin;
}

function formError(message: string, status: number, values?: Record<string, string>, hints?: string[]) {
  const result: AuthActionResult = { status: 'error', message, hints, values };
  return data(result, { status });
}

const accountKey = (email: string) => email.trim().toLowerCase();

/**
 * Hard limits per client address, and per email address *from that client address*: an email
 * alone is never a hard limit, or anyone could lock its owner out by failing on purpose
 * (the per-account protection is the delay in `signIn`).
 */
function rateLimited(context: ActionArgs['context'], email: string | undefined, values: Record<string, string>) {
  const address = context.get(clientAddressContext);
  const byAddress = authRateLimitByAddress.consume([address]);
  const byEmail = email
    ? authRateLimitByEmailAndAddress.consume([JSON.stringify([accountKey(email), address])])
    : byAddress;
  if (byAddress.allowed && byEmail.allowed) return null;
  const retryAfterSeconds = Math.max(byAddress.retryAfterSeconds, byEmail.retryAfterSeconds);
  const result: AuthActionResult = { status: 'error', message: RATE_LIMIT_MESSAGE, values };
  return data(result, { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } });
}

async function signedInRedirect(request: Request, to: string | undefined, message: string) {
  return redirect(safeRedirectPath(to, '/dashboard'), {
    headers: { 'Set-Cookie': await setFlash(request, { kind: 'success', message }) },
  });
}

export async function signIn({ request, context }: ActionArgs) {
  const formData = await request.formData();
  const values = formValues(formData);
  const limited = rateLimited(context, values.email, values);
  if (limited) return limited;
  const parsed = SignInSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return formError(firstMessage(parsed.error), 400, values);

  // After repeated failures on this account from anywhere, each attempt waits longer; the owner
  // with the right password is slowed, never refused.
  await signInFailuresByAccount.wait(accountKey(parsed.data.email));
  const { error } = await context.get(supabaseContext).auth.signInWithPassword({
    email: parsed.data.email,
    password: parsed.data.password,
  });
  if (error) {
    if (error.code === 'invalid_credentials') signInFailuresByAccount.fail(accountKey(parsed.data.email));
    const mapped = mapAuthError(error.message);
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 400;
    if (!error.status || error.status >= 500) console.error('Sign-in failed:', error.message);
    return formError(mapped.message, status === 429 ? 429 : 400, values, mapped.hints);
  }
  return signedInRedirect(request, parsed.data.redirectTo, SUCCESS_MESSAGES.signedIn);
}

export async function signUp({ request, context }: ActionArgs) {
  const formData = await request.formData();
  const values = formValues(formData);
  const limited = rateLimited(context, values.email, values);
  if (limited) return limited;
  const parsed = SignUpSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return formError(firstMessage(parsed.error), 400, values);
  const { email, password, username, accountType, redirectTo } = parsed.data;
  const supabase = context.get(supabaseContext);

  const { data: available, error: lookupError } = await supabase.rpc('is_username_available', { name: username });
  if (lookupError) {
    console.error('Username check failed:', lookupError.message);
    return formError(UNEXPECTED_ERROR, 503, values);
  }
  if (available === false) return formError(USERNAME_TAKEN_MESSAGE, 409, values);

  const next = safeRedirectPath(redirectTo, '/dashboard');
  const { data: result, error } = await supabase.auth.signUp({
    email,
    password,
    options: {
      data: { username, user_type: accountType },
      emailRedirectTo: `${appOrigin(request)}/auth/callback?${new URLSearchParams({ next })}`,
    },
  });
  if (error) {
    const mapped = mapAuthError(error.message);
    if (!error.status || error.status >= 500) console.error('Sign-up failed:', error.message);
    const status = error.message.includes('already registered') ? 409 : error.status === 429 ? 429 : 400;
    return formError(mapped.message, status, values, mapped.hints);
  }
  if (!result.session) {
    const success: AuthActionResult = { status: 'success', message: SUCCESS_MESSAGES.signedUpConfirm };
    return data(success);
  }
  return signedInRedirect(request, next, SUCCESS_MESSAGES.signedIn);
}

/** Starts Google sign-in with PKCE; the verifier cookie rides on this redirect. */
export async function startGoogleSignIn({ request, context }: ActionArgs) {
  const formData = await request.formData();
  if (!(await googleSignInAvailable(context.get(connectionContext)))) {
    return formError(GOOGLE_NOT_CONFIGURED_MESSAGE, 400);
  }
  const next = safeRedirectPath(formData.get('redirectTo'), '/dashboard');
  const { data: oauth, error } = await context.get(supabaseContext).auth.signInWithOAuth({
    provider: 'google',
    options: {
      redirectTo: `${appOrigin(request)}/auth/callback?${new URLSearchParams({ next: next === '/' ? '/dashboard' : next })}`,
      queryParams: { access_type: 'offline', prompt: 'consent' },
      skipBrowserRedirect: true,
    },
  });
  if (error || !oauth.url) return formError(mapAuthError(error?.message).message, 400);
  return redirectDocument(oauth.url);
}

/** Sends a recovery link. The answer is the same whether or not the account exists. */
export async function requestPasswordReset({ request, context }: ActionArgs) {
  const formData = await request.formData();
  const values = formValues(formData);
  const limited = rateLimited(context, values.email, values);
  if (limited) return limited;
  const parsed = EmailOnlySchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return formError(firstMessage(parsed.error), 400, values);
  const { error } = await context.get(supabaseContext).auth.resetPasswordForEmail(parsed.data.email, {
    redirectTo: `${appOrigin(request)}/auth/callback?${new URLSearchParams({ next: '/auth/reset-password' })}`,
  });
  if (error && error.status !== 429) console.error('Password recovery failed:', error.message);
  if (error?.status === 429) return formError(mapAuthError('Email rate limit exceeded').message, 429, values);
  const success: AuthActionResult = { status: 'success', message: RESET_LINK_SENT_MESSAGE };
  return data(success);
}

export async function setNewPassword({ request, context }: ActionArgs) {
  const formData = await request.formData();
  const parsed = NewPasswordSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return formError(firstMessage(parsed.error), 400);
  const { error } = await context.get(supabaseContext).auth.updateUser({ password: parsed.data.password });
  if (error) return formError(mapAuthError(error.message).message, error.status === 422 ? 422 : 400);
  return redirect('/dashboard', {
    headers: { 'Set-Cookie': await setFlash(request, { kind: 'success', message: 'Your password has been updated.' }) },
  });
}

/** Signed-in visitors have no business on the sign-in pages. */
export function redirectIfSignedIn({ url, context }: { url: URL; context: ActionArgs['context'] }) {
  if (!context.get(viewerContext)) return;
  const to = url.searchParams.get('redirectTo');
  throw redirect(safeRedirectPath(to, '/dashboard'));
}

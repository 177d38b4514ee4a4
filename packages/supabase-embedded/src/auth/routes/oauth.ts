/**
 * `GET /authorize?provider=google` and `GET /callback`: with a Google
 * client configured, the real OpenID Connect code flow (google-oidc.ts); else, with the
 * development tools on, the local Google page (`/_local/google`) standing in for the IdP.
 */
import { randomBytes } from 'node:crypto';
import { AuthError, validationFailed } from '../errors';
import {
  FLOW_STATE_EXPIRY_SECONDS,
  createFlowState,
  getFlowState,
  issueAuthCode,
  type FlowStateRow,
} from '../flow-state';
import { browserSubjects, rememberSubject } from '../google-standin-cookie';
import type { IdpChecks } from '../google-oidc';
import {
  findGoogleIdentity,
  findGoogleIdentityByEmail,
  googleProfile,
  listGoogleAccounts,
  newGoogleSubject,
  signInWithGoogleProfile,
} from '../google-accounts';
import { avatarSvg, renderGooglePage, renderMessagePage } from '../google-page';
import { htmlResponse, isUuid, redirect } from '../http';
import { resolveRedirect } from '../redirects';
import { googleAvailable, type AuthService } from '../service';
import { signIn } from '../sessions';
import { findUserByEmail } from '../users';
import { parsePkce, validateEmail } from '../validation';
import { errorRedirect } from './verify';

/** Query keys of `/authorize` that are ours; everything else is forwarded to the IdP. */
const OWN_KEYS = new Set([
  'provider',
  'redirect_to',
  'code_challenge',
  'code_challenge_method',
  'skip_http_redirect',
  'apikey',
]);

export async function authorize(service: AuthService, request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const provider = params.get('provider') ?? '';
  if (provider !== 'google' || !googleAvailable(service)) {
    throw validationFailed('Unsupported provider: provider is not enabled');
  }
  const pkce = parsePkce(params.get('code_challenge'), params.get('code_challenge_method'));
  const redirectTo = resolveRedirect(params.get('redirect_to'), request, service.config, service.appOrigin());
  const flow = await createFlowState(service.db, {
    userId: null,
    pkce,
    providerType: 'google',
    authMethod: 'oauth',
    redirectTo,
  });
  const forwarded = Object.fromEntries([...params].filter(([key]) => !OWN_KEYS.has(key)));
  let idp: string;
  if (service.google) {
    // The flow id is the OAuth `state`: random, single use, and it finds this flow at /callback.
    let authorization;
    try {
      authorization = await service.google.authorizationUrl(flow.id, `${service.authUrl()}/callback`, forwarded);
    } catch (cause) {
      // Discovery failed (Google unreachable, a wrong GOOGLE_ISSUER_URL): back to the app, not a 500.
      console.error('[auth] Google discovery failed:', (cause as Error).message);
      const error = new AuthError(503, 'provider_unavailable', 'Google sign-in is unavailable right now');
      return redirect(errorRedirect(redirectTo, error, Boolean(pkce)), 302);
    }
    const { url, checks } = authorization;
    await service.db.query('update auth.flow_state set provider_params = $2, idp_checks = $3 where id = $1', [
      flow.id,
      forwarded,
      checks,
    ]);
    idp = url;
  } else {
    await service.db.query('update auth.flow_state set provider_params = $2 where id = $1', [flow.id, forwarded]);
    idp = `${service.authUrl()}/_local/google?${new URLSearchParams({ state: flow.id, ...forwarded }).toString()}`;
  }
  if (params.get('skip_http_redirect') === 'true') return Response.json({ url: idp });
  return redirect(idp, 302);
}

async function activeFlow(service: AuthService, state: string | null): Promise<FlowStateRow | null> {
  if (!state || !isUuid(state)) return null;
  const flow = await getFlowState(service.db, state);
  if (!flow || flow.provider_type !== 'google' || flow.auth_code_issued_at) return null;
  return Date.now() - flow.created_at.getTime() > FLOW_STATE_EXPIRY_SECONDS * 1000 ? null : flow;
}

const expiredPage = () =>
  htmlResponse(
    renderMessagePage('Sign-in link expired', 'Go back to the app and choose "Continue with Google" again.'),
    400,
  );

/**
 * Signs the user in for `flow`: a PKCE auth code on the app's redirect URL, or (implicit flow)
 * the session in the fragment, as GoTrue does after any IdP.
 */
async function finishOAuth(
  service: AuthService,
  flow: FlowStateRow,
  userId: string,
  providerToken: string,
  providerRefreshToken: string | null,
  headers: HeadersInit = {},
): Promise<Response> {
  const redirectTo = flow.redirect_to ?? service.appOrigin();
  if (flow.code_challenge) {
    const code = await issueAuthCode(service.db, flow.id, {
      userId,
      providerAccessToken: providerToken,
      providerRefreshToken,
    });
    const target = new URL(redirectTo);
    target.searchParams.set('code', code);
    return redirect(target.toString(), 302, headers);
  }
  await service.db.query('delete from auth.flow_state where id = $1', [flow.id]);
  const tokens = await signIn(service, userId, 'oauth', {
    provider: 'google',
    provider_token: providerToken,
    ...(providerRefreshToken ? { provider_refresh_token: providerRefreshToken } : {}),
  });
  const fragment = new URLSearchParams({
    access_token: String(tokens.access_token),
    expires_at: String(tokens.expires_at),
    expires_in: String(tokens.expires_in),
    provider_token: providerToken,
    ...(providerRefreshToken ? { provider_refresh_token: providerRefreshToken } : {}),
    refresh_token: String(tokens.refresh_token),
    token_type: 'bearer',
  });
  return redirect(`${redirectTo.split('#')[0]}#${fragment.toString()}&sb=`, 302, headers);
}

/** `GET /callback`: where the real IdP sends the browser back with `code` and `state`. */
export async function callback(service: AuthService, request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const flow = service.google ? await activeFlow(service, params.get('state')) : null;
  const checks = flow?.idp_checks as IdpChecks | null | undefined;
  if (!service.google || !flow || !checks?.codeVerifier) {
    const error = new AuthError(400, 'bad_oauth_callback', 'OAuth state parameter missing');
    return redirect(errorRedirect(service.appOrigin(), error, false), 302);
  }
  const redirectTo = flow.redirect_to ?? service.appOrigin();
  const isPkce = Boolean(flow.code_challenge);
  // The flow is spent whatever happens next: a replayed callback finds nothing.
  await service.db.query('update auth.flow_state set idp_checks = null where id = $1', [flow.id]);
  if (params.has('error')) {
    const denied = new AuthError(
      403,
      'access_denied',
      params.get('error_description') || 'The user denied the sign-in',
    );
    return redirect(errorRedirect(redirectTo, denied, isPkce), 302);
  }
  let result;
  try {
    // The URL the IdP redirected to, as registered with it (the request may arrive on another host).
    const callbackUrl = new URL(`${service.authUrl()}/callback?${params.toString()}`);
    result = await service.google.finish(callbackUrl, flow.id, checks);
  } catch (cause) {
    console.warn('[auth] Google sign-in refused:', (cause as Error).message);
    const error = new AuthError(400, 'bad_oauth_callback', 'Google sign-in could not be verified');
    return redirect(errorRedirect(redirectTo, error, isPkce), 302);
  }
  try {
    const userId = await signInWithGoogleProfile(service, result.profile);
    return await finishOAuth(service, flow, userId, result.accessToken, result.refreshToken);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    return redirect(errorRedirect(redirectTo, error, isPkce), 302);
  }
}

/** The stand-in page (development only): this browser's accounts and "Add new account". */
export async function googlePage(service: AuthService, request: Request): Promise<Response> {
  const flow = await activeFlow(service, new URL(request.url).searchParams.get('state'));
  if (!flow) return expiredPage();
  return htmlResponse(
    renderGooglePage({
      state: flow.id,
      action: `${service.authUrl()}/_local/google`,
      accounts: await listGoogleAccounts(service, browserSubjects(service, request)),
    }),
  );
}

export async function googleSubmit(service: AuthService, request: Request): Promise<Response> {
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await request.text());
  } catch {
    return expiredPage();
  }
  const flow = await activeFlow(service, form.get('state'));
  if (!flow) return expiredPage();
  const redirectTo = flow.redirect_to ?? service.appOrigin();
  const isPkce = Boolean(flow.code_challenge);
  const intent = form.get('intent');
  const subjects = browserSubjects(service, request);
  const pageWithError = async (message: string) =>
    htmlResponse(
      renderGooglePage({
        state: flow.id,
        action: `${service.authUrl()}/_local/google`,
        accounts: await listGoogleAccounts(service, subjects),
        error: message,
        values: { email: form.get('email') ?? '', name: form.get('name') ?? '' },
      }),
      400,
    );
  try {
    if (intent === 'cancel') throw new AuthError(403, 'access_denied', 'The user denied the sign-in request');
    let profile;
    if (intent === 'existing') {
      // Only an account this browser created: a subject from elsewhere is unknown here.
      const subject = form.get('subject') ?? '';
      const identity = subjects.includes(subject) ? await findGoogleIdentity(service, subject) : null;
      if (!identity) throw new AuthError(400, 'bad_oauth_callback', 'Unknown Google account');
      profile = identity.identity_data;
    } else {
      const name = (form.get('name') ?? '').trim();
      let email: string;
      try {
        email = validateEmail((form.get('email') ?? '').trim());
      } catch (error) {
        return pageWithError(error instanceof AuthError ? error.message : 'Invalid email');
      }
      const known = await findGoogleIdentityByEmail(service, email);
      if (known ? !subjects.includes(known.provider_id) : await findUserByEmail(service.db, email)) {
        // The stand-in proves nothing about the email: it never enters an account someone else owns.
        return pageWithError(
          'An account with this email already exists. The local Google stand-in only creates new accounts; sign in to that one with its password.',
        );
      }
      const subject = known?.provider_id ?? newGoogleSubject();
      profile = googleProfile(service, subject, email, name || email.split('@')[0]!);
    }
    const userId = await signInWithGoogleProfile(service, profile);
    const providerToken = `ya29.local-${randomBytes(24).toString('base64url')}`;
    const offline = flow.provider_params?.access_type === 'offline';
    const providerRefreshToken = offline ? `1//local-${randomBytes(24).toString('base64url')}` : null;
    const remember = { 'set-cookie': rememberSubject(service, subjects, String(profile.sub)) };
    return await finishOAuth(service, flow, userId, providerToken, providerRefreshToken, remember);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    return redirect(errorRedirect(redirectTo, error, isPkce), 302);
  }
}

export async function avatar(_service: AuthService, request: Request): Promise<Response> {
  const name = new URL(request.url).searchParams.get('name') ?? '';
  return new Response(avatarSvg(name.slice(0, 80)), {
    headers: {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
    },
  });
}

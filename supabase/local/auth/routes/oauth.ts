/**
 * `GET /authorize?provider=google`, the local Google page (`/_local/google`) standing in for
 * the IdP and its callback, and `GET /callback` (wire reference §2.11).
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
import type { AuthService } from '../service';
import { signIn } from '../sessions';
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
  if (provider !== 'google' || !service.config.googleEnabled) {
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
  await service.db.query('update auth.flow_state set provider_params = $2 where id = $1', [flow.id, forwarded]);
  const idp = `${service.authUrl()}/_local/google?${new URLSearchParams({ state: flow.id, ...forwarded }).toString()}`;
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

export async function googlePage(service: AuthService, request: Request): Promise<Response> {
  const flow = await activeFlow(service, new URL(request.url).searchParams.get('state'));
  if (!flow) return expiredPage();
  return htmlResponse(
    renderGooglePage({
      state: flow.id,
      action: `${service.authUrl()}/_local/google`,
      accounts: await listGoogleAccounts(service),
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
  try {
    if (intent === 'cancel') throw new AuthError(403, 'access_denied', 'The user denied the sign-in request');
    let profile;
    if (intent === 'existing') {
      const identity = await findGoogleIdentity(service, form.get('subject') ?? '');
      if (!identity) throw new AuthError(400, 'bad_oauth_callback', 'Unknown Google account');
      profile = identity.identity_data;
    } else {
      const name = (form.get('name') ?? '').trim();
      let email: string;
      try {
        email = validateEmail((form.get('email') ?? '').trim());
      } catch (error) {
        const page = renderGooglePage({
          state: flow.id,
          action: `${service.authUrl()}/_local/google`,
          accounts: await listGoogleAccounts(service),
          error: error instanceof AuthError ? error.message : 'Invalid email',
          values: { email: form.get('email') ?? '', name },
        });
        return htmlResponse(page, 400);
      }
      const known = await findGoogleIdentityByEmail(service, email);
      const subject = known?.provider_id ?? newGoogleSubject();
      profile = googleProfile(service, subject, email, name || email.split('@')[0]!);
    }
    const userId = await signInWithGoogleProfile(service, profile);
    const providerToken = `ya29.local-${randomBytes(24).toString('base64url')}`;
    const offline = flow.provider_params?.access_type === 'offline';
    const providerRefreshToken = offline ? `1//local-${randomBytes(24).toString('base64url')}` : null;
    if (isPkce) {
      const code = await issueAuthCode(service.db, flow.id, {
        userId,
        providerAccessToken: providerToken,
        providerRefreshToken,
      });
      const target = new URL(redirectTo);
      target.searchParams.set('code', code);
      return redirect(target.toString(), 302);
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
    return redirect(`${redirectTo.split('#')[0]}#${fragment.toString()}&sb=`, 302);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    return redirect(errorRedirect(redirectTo, error, isPkce), 302);
  }
}

/** No real IdP calls back to the stand-in; a stray callback goes to the app with an error. */
export async function callback(service: AuthService): Promise<Response> {
  const error = new AuthError(400, 'bad_oauth_callback', 'OAuth state parameter missing');
  return redirect(errorRedirect(service.appOrigin(), error, false), 302);
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

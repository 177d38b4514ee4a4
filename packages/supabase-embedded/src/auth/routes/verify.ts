/** `POST /verify` and `GET /verify`. */
import { AuthError, validationFailed, forbidden, notFound } from '../errors';
import { issueAuthCode, latestFlowStateFor } from '../flow-state';
import { jsonBody, readJson, redirect, stringField } from '../http';
import { resolveRedirect } from '../redirects';
import type { AuthService } from '../service';
import { signIn } from '../sessions';
import type { VerifyType } from '../verification';
import { redeemEmailToken, VERIFY_TYPES } from '../verification';

const FLOW_METHODS: Record<string, string[]> = {
  signup: ['email/signup'],
  invite: ['invite'],
  recovery: ['recovery'],
  magiclink: ['magiclink'],
  email_change: ['email_change'],
  email: ['email/signup', 'magiclink', 'recovery'],
};

function parseType(value: string): VerifyType {
  if (!(VERIFY_TYPES as readonly string[]).includes(value)) throw validationFailed('Unsupported verification type');
  return value as VerifyType;
}

export async function verifyPost(service: AuthService, request: Request): Promise<Response> {
  await service.limits.hit('tokenVerifications', request);
  const body = await readJson(request);
  const type = parseType(stringField(body, 'type'));
  const hash = stringField(body, 'token_hash');
  const token = stringField(body, 'token');
  const email = stringField(body, 'email');
  const phone = stringField(body, 'phone');
  if (Boolean(hash) === Boolean(token)) throw validationFailed('Verify requires either a token or a token hash');
  if (hash && (email || phone)) throw validationFailed('Only the token_hash and type should be provided');
  if (type === 'sms' || type === 'phone_change' || phone)
    throw forbidden('otp_expired', 'Token has expired or is invalid');
  if (token && !email) throw validationFailed('Only an email address or phone number should be provided on verify');
  const { user } = await redeemEmailToken(service, type, hash ? { tokenHash: hash } : { email, otp: token });
  return jsonBody(await signIn(service, user.id, 'otp'));
}

const ERROR_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** The link in the email: verifies, then 303 to `redirect_to` with `?code=` (PKCE) or tokens in the fragment. */
export async function verifyGet(service: AuthService, request: Request): Promise<Response> {
  // Over the limit the link answers the JSON 429, as GoTrue's limiter does before its handler runs.
  await service.limits.hit('tokenVerifications', request);
  const params = new URL(request.url).searchParams;
  const token = params.get('token') ?? '';
  const isPkce = token.startsWith('pkce_');
  const redirectTo = resolveRedirect(params.get('redirect_to'), request, service.config, service.appOrigin());
  try {
    const type = parseType(params.get('type') ?? '');
    const { user, pkce } = await redeemEmailToken(service, type, { tokenHash: token });
    if (pkce) {
      let flow = null;
      for (const method of FLOW_METHODS[type] ?? []) {
        flow ??= await latestFlowStateFor(service.db, user.id, method);
      }
      if (!flow) throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
      const code = await issueAuthCode(service.db, flow.id);
      const target = new URL(redirectTo);
      target.searchParams.set('code', code);
      return redirect(target.toString(), 303);
    }
    const tokens = await signIn(service, user.id, 'otp');
    const fragment = new URLSearchParams({
      access_token: String(tokens.access_token),
      expires_at: String(tokens.expires_at),
      expires_in: String(tokens.expires_in),
      refresh_token: String(tokens.refresh_token),
      token_type: 'bearer',
      type,
    });
    return redirect(`${redirectTo.split('#')[0]}#${fragment.toString()}&sb=`, 303);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    return redirect(errorRedirect(redirectTo, error, isPkce), 303);
  }
}

/** `redirect_to` with `error`, `error_code`, `error_description` in the fragment (and query for PKCE). */
export function errorRedirect(redirectTo: string, error: AuthError, inQuery: boolean): string {
  const params = new URLSearchParams({
    error: ERROR_BY_STATUS[error.status] ?? (error.status >= 500 ? 'server_error' : 'invalid_request'),
    error_code: error.code,
    error_description: error.message,
  });
  const target = new URL(redirectTo.split('#')[0]!);
  if (inQuery) for (const [key, value] of params) target.searchParams.set(key, value);
  return `${target.toString()}#${params.toString()}&sb=`;
}

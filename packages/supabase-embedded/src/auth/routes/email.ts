/** `POST /recover`, `POST /otp`, `POST /resend`. */
import { randomBytes } from 'node:crypto';
import { unprocessable, validationFailed } from '../errors';
import { createFlowState } from '../flow-state';
import { booleanField, jsonBody, objectField, readJson, stringField } from '../http';
import type { EmailType } from '../outbox';
import { sendEmail, withholdEmail } from '../mailer';
import { resolveRedirect } from '../redirects';
import type { AuthService } from '../service';
import type { UserRow } from '../users';
import { createUser, findUserByEmail, isBanned } from '../users';
import type { PkceParams } from '../validation';
import { parsePkce, validateEmail } from '../validation';

type FlowEmailType = Exclude<EmailType, 'reauthentication'>;

const FLOW_METHOD: Record<FlowEmailType, string> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
};

/**
 * Sends one email of a PKCE-aware flow, creating the flow state its link will redeem. A banned
 * user is sent nothing (their link would be refused anyway, and a ban must not leave the site a
 * way to mail them on anyone's request); the answer, the per-account limit included, stays the
 * same, so it tells nobody of the ban.
 */
async function sendFlowEmail(
  service: AuthService,
  user: UserRow,
  type: FlowEmailType,
  pkce: PkceParams | null,
  redirectTo: string,
  to?: string,
) {
  if (isBanned(user)) return withholdEmail(service, user, type);
  await sendEmail(service, user, type, { redirectTo, pkce: pkce !== null, to });
  if (pkce) {
    await createFlowState(service.db, {
      userId: user.id,
      pkce,
      providerType: 'email',
      authMethod: FLOW_METHOD[type],
      redirectTo,
    });
  }
}

function redirectFor(service: AuthService, request: Request): string {
  return resolveRedirect(
    new URL(request.url).searchParams.get('redirect_to'),
    request,
    service.config,
    service.appOrigin(),
  );
}

export async function recover(service: AuthService, request: Request): Promise<Response> {
  // Counted per request, whether or not the address has an account, so the limit tells nothing.
  await service.limits.hit('emailSent', request);
  const body = await readJson(request);
  const email = stringField(body, 'email');
  if (!email) throw validationFailed('Password recovery requires an email');
  const address = validateEmail(email);
  const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
  const user = await findUserByEmail(service.db, address);
  if (user) await sendFlowEmail(service, user, 'recovery', pkce, redirectFor(service, request));
  return jsonBody({});
}

export async function otp(service: AuthService, request: Request): Promise<Response> {
  const { config, db } = service;
  await service.limits.hit('emailSent', request);
  const body = await readJson(request);
  const email = stringField(body, 'email');
  if (!email) {
    throw stringField(body, 'phone')
      ? validationFailed('Unsupported phone provider')
      : validationFailed('An email address is required');
  }
  const address = validateEmail(email);
  const data = objectField(body, 'data') ?? {};
  const createUserAllowed = booleanField(body, 'create_user') ?? true;
  const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
  const redirectTo = redirectFor(service, request);
  let user = await findUserByEmail(db, address);
  if (!user) {
    if (!createUserAllowed) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
    if (!config.enableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    user = await createUser(db, {
      email: address,
      password: randomBytes(24).toString('base64url'),
      userMetadata: data,
      provider: 'email',
      confirm: !config.enableConfirmations,
    });
  }
  if (!user.email_confirmed_at) await sendFlowEmail(service, user, 'signup', pkce, redirectTo);
  else await sendFlowEmail(service, user, 'magiclink', pkce, redirectTo);
  return jsonBody({});
}

const RESEND_TYPES = new Set(['signup', 'email_change', 'sms', 'phone_change']);

export async function resend(service: AuthService, request: Request): Promise<Response> {
  await service.limits.hit('emailSent', request);
  const body = await readJson(request);
  const type = stringField(body, 'type');
  if (!RESEND_TYPES.has(type))
    throw validationFailed('Missing one of these types: signup, email_change, sms, phone_change');
  const email = stringField(body, 'email');
  if (type === 'sms' || type === 'phone_change' || !email) return jsonBody({});
  const address = validateEmail(email);
  const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
  const user = await findUserByEmail(service.db, address);
  if (!user) return jsonBody({});
  if (type === 'signup' && !user.email_confirmed_at) {
    await sendFlowEmail(service, user, 'signup', pkce, redirectFor(service, request));
  } else if (type === 'email_change' && user.email_change) {
    await sendFlowEmail(service, user, 'email_change', pkce, redirectFor(service, request), user.email_change);
  }
  return jsonBody({});
}

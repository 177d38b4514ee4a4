/** `GET /user`, `PUT /user` and `POST /logout`. */
import { AuthError, badRequest, forbidden, unprocessable, validationFailed } from '../errors';
import { createFlowState } from '../flow-state';
import { jsonBody, objectField, readJson, stringField, type Body } from '../http';
import { sendEmail, tokenHash } from '../mailer';
import { hasVerifiedFactor } from '../mfa';
import { resolveRedirect } from '../redirects';
import type { AuthService } from '../service';
import type { LogoutScope } from '../sessions';
import { endOtherSessions, logout } from '../sessions';
import { authenticate, isRecoverySession } from '../tokens';
import { loadUserJson } from '../user-json';
import type { UserRow } from '../users';
import { checkPassword, findUserByEmail, getUser, mergeUserMetadata, setPassword } from '../users';
import { parsePkce, validateEmail, validateNewPassword } from '../validation';

export async function getUserRoute(service: AuthService, request: Request): Promise<Response> {
  const { user, claims } = await authenticate(service, request);
  if (claims.aud !== undefined && claims.aud !== 'authenticated') {
    throw validationFailed("Token audience doesn't match request audience");
  }
  return jsonBody(await loadUserJson(service.db, user.id));
}

export async function updateUserRoute(service: AuthService, request: Request): Promise<Response> {
  const { db, config } = service;
  const { user, sessionId, aal, amr } = await authenticate(service, request);
  const body = await readJson(request);
  if (body.app_metadata !== undefined && body.app_metadata !== null) {
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  }
  const data = objectField(body, 'data');
  const password = stringField(body, 'password');
  const email = stringField(body, 'email');
  const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
  const newEmail = email && email.toLowerCase() !== (user.email ?? '').toLowerCase() ? validateEmail(email) : null;

  if (password)
    validateNewPassword(password, config.minimumPasswordLength, 'Password update requires a valid password');
  // As GoTrue: with a verified factor, the password alone (aal1) changes neither.
  if ((password || newEmail) && aal !== 'aal2' && (await hasVerifiedFactor(db, user.id))) {
    throw new AuthError(
      401,
      'insufficient_aal',
      'AAL2 session is required to update email or password when MFA is enabled.',
    );
  }
  if (password) {
    if (config.securePasswordChange && !isRecoverySession(amr)) await requireReauthentication(service, user, body);
    if (await checkPassword(db, user.id, password)) {
      throw unprocessable('same_password', 'New password should be different from the old password.');
    }
  }
  if (newEmail) {
    const owner = await findUserByEmail(db, newEmail);
    if (owner && owner.id !== user.id) {
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
    }
  }

  if (data) await mergeUserMetadata(db, user.id, data);
  if (password) {
    await setPassword(db, user.id, password);
    await endOtherSessions(service, user.id, sessionId);
  }
  // A new address is taken only once its owner follows the link sent to it, with confirmations
  // on or off, as GoTrue does for every account that is not anonymous: a stolen session cannot
  // move the account to an address the thief reads.
  if (newEmail) {
    const redirectTo = resolveRedirect(
      new URL(request.url).searchParams.get('redirect_to'),
      request,
      config,
      service.appOrigin(),
    );
    await db.query(`update auth.users set email_change = $2, updated_at = now() where id = $1`, [user.id, newEmail]);
    const current = (await getUser(db, user.id))!;
    await sendEmail(service, current, 'email_change', { redirectTo, pkce: pkce !== null, to: newEmail });
    if (pkce) {
      await createFlowState(db, {
        userId: user.id,
        pkce,
        providerType: 'email',
        authMethod: 'email_change',
        redirectTo,
      });
    }
  }
  return jsonBody(await loadUserJson(db, user.id));
}

/**
 * `secure_password_change`: outside a recovery session, a new password needs proof that the
 * caller is the owner and not someone holding their session: the current password (GoTrue's
 * `current_password`) or the code `GET /reauthenticate` mailed (`nonce`). A wrong code spends it,
 * so codes cannot be guessed one after another; wrong passwords earn the sign-in's per-account delay.
 */
async function requireReauthentication(service: AuthService, user: UserRow, body: Body): Promise<void> {
  const nonce = stringField(body, 'nonce');
  const currentPassword = stringField(body, 'current_password');
  if (nonce) {
    const sentAt = user.reauthentication_sent_at;
    const valid =
      Boolean(user.email) &&
      Boolean(user.reauthentication_token) &&
      sentAt !== null &&
      Date.now() - sentAt.getTime() <= service.config.otpExpiry * 1000 &&
      user.reauthentication_token === tokenHash(user.email!, nonce);
    await service.db.query(
      `update auth.users set reauthentication_token = '', reauthentication_sent_at = null where id = $1`,
      [user.id],
    );
    if (!valid) throw unprocessable('reauthentication_not_valid', 'Nonce has expired or is invalid');
    return;
  }
  if (!currentPassword) throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
  const email = user.email ?? user.id;
  await service.limits.beforePasswordCheck(email);
  if (!(await checkPassword(service.db, user.id, currentPassword))) {
    await service.limits.passwordFailed(email);
    throw badRequest('current_password_mismatch', 'Current password required when setting new password.');
  }
}

/**
 * `GET /reauthenticate`: mails the signed-in user a code that `PUT /user` takes as `nonce` for a
 * password change (GoTrue's reauthentication email: a code, no link).
 */
export async function reauthenticateRoute(service: AuthService, request: Request): Promise<Response> {
  const { user } = await authenticate(service, request);
  if (!user.email) {
    throw badRequest('validation_failed', 'Reauthentication requires the user to have an email or a phone number');
  }
  if (!user.email_confirmed_at) throw unprocessable('email_not_confirmed', 'Please verify your email first.');
  await service.limits.hit('emailSent', request);
  await sendEmail(service, user, 'reauthentication', { redirectTo: '', pkce: false });
  return jsonBody({});
}

const SCOPES = new Set<LogoutScope>(['global', 'local', 'others']);

export async function logoutRoute(service: AuthService, request: Request): Promise<Response> {
  const scope = new URL(request.url).searchParams.get('scope') ?? 'global';
  if (!SCOPES.has(scope as LogoutScope)) throw validationFailed(`Unsupported logout scope "${scope}"`);
  const { user, sessionId } = await authenticate(service, request);
  await logout(service, user.id, sessionId, scope as LogoutScope);
  return new Response(null, { status: 204 });
}

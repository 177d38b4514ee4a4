/** `GET /user`, `PUT /user` and `POST /logout` (wire reference §2.7, §2.8). */
import { forbidden, unprocessable, validationFailed } from '../errors';
import { createFlowState } from '../flow-state';
import { jsonBody, objectField, readJson, stringField } from '../http';
import { sendEmail } from '../mailer';
import { resolveRedirect } from '../redirects';
import type { AuthService } from '../service';
import type { LogoutScope } from '../sessions';
import { endOtherSessions, logout } from '../sessions';
import { authenticate } from '../tokens';
import { loadUserJson } from '../user-json';
import { checkPassword, findUserByEmail, getUser, mergeUserMetadata, setEmail, setPassword } from '../users';
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
  const { user, sessionId } = await authenticate(service, request);
  const body = await readJson(request);
  if (body.app_metadata !== undefined && body.app_metadata !== null) {
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  }
  const data = objectField(body, 'data');
  const password = stringField(body, 'password');
  const email = stringField(body, 'email');
  const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
  const newEmail = email && email.toLowerCase() !== (user.email ?? '').toLowerCase() ? validateEmail(email) : null;

  if (password) {
    validateNewPassword(password, config.minimumPasswordLength, 'Password update requires a valid password');
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
  if (newEmail) {
    if (config.enableConfirmations) {
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
    } else {
      await setEmail(db, user.id, newEmail);
    }
  }
  return jsonBody(await loadUserJson(db, user.id));
}

const SCOPES = new Set<LogoutScope>(['global', 'local', 'others']);

export async function logoutRoute(service: AuthService, request: Request): Promise<Response> {
  const scope = new URL(request.url).searchParams.get('scope') ?? 'global';
  if (!SCOPES.has(scope as LogoutScope)) throw validationFailed(`Unsupported logout scope "${scope}"`);
  const { user, sessionId } = await authenticate(service, request);
  await logout(service, user.id, sessionId, scope as LogoutScope);
  return new Response(null, { status: 204 });
}

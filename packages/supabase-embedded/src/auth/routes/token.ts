/** `POST /token?grant_type=password|refresh_token|pkce`. */
import { AuthError, badRequest, unprocessable, validationFailed } from '../errors';
import { pkceGrant } from '../flow-state';
import { jsonBody, readJson, stringField } from '../http';
import type { AuthService } from '../service';
import { refreshGrant, signIn, userBanned } from '../sessions';
import { checkPassword, findUserByEmail, isBanned } from '../users';

export async function token(service: AuthService, request: Request): Promise<Response> {
  const grantType = new URL(request.url).searchParams.get('grant_type');
  // GoTrue counts refreshes apart from sign-ins; every other grant is a sign-in.
  await service.limits.hit(grantType === 'refresh_token' ? 'tokenRefresh' : 'signInSignUps', request);
  const body = await readJson(request);
  switch (grantType) {
    case 'password':
      return jsonBody(
        await passwordGrant(
          service,
          stringField(body, 'email'),
          stringField(body, 'phone'),
          stringField(body, 'password'),
          request,
        ),
      );
    case 'refresh_token':
      return jsonBody(await refreshGrant(service, stringField(body, 'refresh_token')));
    case 'pkce':
      return jsonBody(
        await pkceGrant(service, stringField(body, 'auth_code'), stringField(body, 'code_verifier'), request),
      );
    default:
      throw badRequest('invalid_credentials', 'unsupported_grant_type');
  }
}

async function passwordGrant(service: AuthService, email: string, phone: string, password: string, request: Request) {
  if (email && phone) throw validationFailed('Only an email address or phone number should be provided on login.');
  if (!email && !phone) throw validationFailed('missing email or phone');
  const invalid = badRequest('invalid_credentials', 'Invalid login credentials');
  if (phone) throw invalid;
  if (!service.config.emailProviderEnabled) throw unprocessable('email_provider_disabled', 'Email logins are disabled');
  // The per-account delay comes before the check, for known and unknown addresses alike, so
  // neither its presence nor the answer's timing tells whether the password was right.
  await service.limits.beforePasswordCheck(email);
  const user = await findUserByEmail(service.db, email);
  // The hash work runs for an unknown address too (against a dummy hash): same time either way.
  if (!password || !(await checkPassword(service.db, user?.id ?? null, password)) || !user) {
    await service.limits.passwordFailed(email);
    throw invalid;
  }
  if (isBanned(user)) throw userBanned();
  if (!user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
  const minimum = service.config.minimumPasswordLength;
  const extra =
    [...password].length < minimum
      ? { weak_password: { message: `Password should be at least ${minimum} characters.`, reasons: ['length'] } }
      : {};
  return signIn(service, user.id, 'password', extra, request);
}

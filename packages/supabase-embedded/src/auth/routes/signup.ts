/** `POST /signup`. */
import { AuthError, unprocessable, validationFailed } from '../errors';
import { createFlowState } from '../flow-state';
import type { Body } from '../http';
import { jsonBody, objectField, readJson, stringField } from '../http';
import { sendEmail } from '../mailer';
import { resolveRedirect } from '../redirects';
import type { AuthService } from '../service';
import { signIn } from '../sessions';
import { loadUserJson } from '../user-json';
import { confirmEmail, createUser, findUserByEmail, isBanned, setPassword } from '../users';
import { parsePkce, validateEmail, validateNewPassword } from '../validation';

export async function signup(service: AuthService, request: Request): Promise<Response> {
  const { config, db } = service;
  const body: Body = await readJson(request);
  const email = stringField(body, 'email');
  const phone = stringField(body, 'phone');
  const password = stringField(body, 'password');
  const data = objectField(body, 'data') ?? {};
  // Anonymous sign-ins have their own hourly budget; a sign-up that mails a confirmation also
  // spends the email budget.
  await service.limits.hit(email || phone ? 'signInSignUps' : 'anonymousUsers', request);
  if (email && config.enableConfirmations) await service.limits.hit('emailSent', request);
  if (!email && !phone) throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
  if (!config.enableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  validateNewPassword(password, config.minimumPasswordLength, 'Signup requires a valid password');
  if (email && phone) throw validationFailed('Only an email address or phone number should be provided on signup.');
  const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
  if (phone) throw new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');
  if (!config.emailProviderEnabled) throw new AuthError(400, 'email_provider_disabled', 'Email signups are disabled');
  const address = validateEmail(email);
  const redirectTo = resolveRedirect(
    new URL(request.url).searchParams.get('redirect_to'),
    request,
    config,
    service.appOrigin(),
  );

  const existing = await findUserByEmail(db, address);
  // A banned account is answered as a confirmed one: no email, no password change, nothing that
  // tells it apart from any taken address.
  if (existing && (existing.email_confirmed_at || isBanned(existing))) {
    if (!config.enableConfirmations) throw unprocessable('user_already_exists', 'User already registered');
    return jsonBody(fakeUser(address, data));
  }
  if (existing && !config.enableConfirmations) {
    await setPassword(db, existing.id, password);
    await confirmEmail(db, existing.id);
    return jsonBody(await signIn(service, existing.id, 'password', {}, request));
  }
  const user =
    existing ??
    (await createUser(db, {
      email: address,
      password,
      userMetadata: data,
      provider: 'email',
      confirm: !config.enableConfirmations,
    }));
  if (!config.enableConfirmations) return jsonBody(await signIn(service, user.id, 'password', {}, request));

  await sendEmail(service, user, 'signup', { redirectTo, pkce: pkce !== null });
  if (pkce) {
    await createFlowState(db, { userId: user.id, pkce, providerType: 'email', authMethod: 'email/signup', redirectTo });
  }
  return jsonBody(await loadUserJson(db, user.id));
}

/** What a confirmed address gets when confirmations are on: a plausible user, no session. */
function fakeUser(email: string, data: Record<string, unknown>) {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    aud: 'authenticated',
    role: 'authenticated',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

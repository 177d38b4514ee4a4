/** The admin API with the service key. */
import { randomBytes } from 'node:crypto';
import { AuthError, notFound, unprocessable, validationFailed } from '../errors';
import type { Body } from '../http';
import { booleanField, isUuid, jsonBody, objectField, readJson, stringField } from '../http';
import { issueEmailToken, verifyLink } from '../mailer';
import type { EmailType } from '../outbox';
import { resolveRedirect } from '../redirects';
import type { AuthService } from '../service';
import { endSessions } from '../sessions';
import { requireAdmin } from '../tokens';
import { loadUserJson } from '../user-json';
import type { UserRow } from '../users';
import {
  confirmEmail,
  createUser,
  findUserByEmail,
  getUser,
  mergeAppMetadata,
  mergeUserMetadata,
  setEmail,
  setPassword,
} from '../users';
import { duration } from '../config';
import { validateEmail, validateNewPassword } from '../validation';

async function requireUser(service: AuthService, id: string): Promise<UserRow> {
  const user = isUuid(id) ? await getUser(service.db, id) : null;
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

export async function listUsers(service: AuthService, request: Request): Promise<Response> {
  await requireAdmin(service, request);
  const params = new URL(request.url).searchParams;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '', 10) || 1);
  const perPage = Math.min(1000, Math.max(1, Number.parseInt(params.get('per_page') ?? '', 10) || 50));
  const total = Number(
    (await service.db.query<{ count: number }>('select count(*)::int as count from auth.users')).rows[0]?.count ?? 0,
  );
  const ids = (
    await service.db.query<{ id: string }>(
      'select id from auth.users order by created_at desc, id limit $1 offset $2',
      [perPage, (page - 1) * perPage],
    )
  ).rows;
  const users = [];
  for (const { id } of ids) users.push(await loadUserJson(service.db, id));
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const links = [];
  if (page < lastPage) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
  return new Response(JSON.stringify({ users, aud: 'authenticated' }), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-total-count': String(total),
      link: links.join(', '),
    },
  });
}

export async function createUserRoute(service: AuthService, request: Request): Promise<Response> {
  await requireAdmin(service, request);
  const body = await readJson(request);
  const email = stringField(body, 'email');
  if (!email)
    throw validationFailed(stringField(body, 'phone') ? 'Unsupported phone provider' : 'An email address is required');
  const address = validateEmail(email);
  const password = stringField(body, 'password');
  if (password) validateNewPassword(password, service.config.minimumPasswordLength, 'Password is required');
  if (await findUserByEmail(service.db, address)) {
    throw unprocessable('email_exists', 'A user with this email address has already been registered');
  }
  const user = await createUser(service.db, {
    email: address,
    password: password || undefined,
    userMetadata: objectField(body, 'user_metadata') ?? objectField(body, 'data') ?? {},
    appMetadata: objectField(body, 'app_metadata'),
    provider: 'email',
    confirm: booleanField(body, 'email_confirm') === true,
  });
  await applyBan(service, user.id, body);
  return jsonBody(await loadUserJson(service.db, user.id));
}

export async function getUserRoute(service: AuthService, request: Request, id: string): Promise<Response> {
  await requireAdmin(service, request);
  const user = await requireUser(service, id);
  return jsonBody(await loadUserJson(service.db, user.id));
}

export async function updateUserRoute(service: AuthService, request: Request, id: string): Promise<Response> {
  await requireAdmin(service, request);
  const user = await requireUser(service, id);
  const body = await readJson(request);
  const { db } = service;
  const email = stringField(body, 'email');
  const password = stringField(body, 'password');
  if (password) validateNewPassword(password, service.config.minimumPasswordLength, 'Password is required');
  if (email && email.toLowerCase() !== user.email) {
    const address = validateEmail(email);
    const owner = await findUserByEmail(db, address);
    if (owner && owner.id !== user.id)
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
    await setEmail(db, user.id, address);
  }
  if (password) await setPassword(db, user.id, password);
  const userMetadata = objectField(body, 'user_metadata');
  if (userMetadata) await mergeUserMetadata(db, user.id, userMetadata);
  const appMetadata = objectField(body, 'app_metadata');
  if (appMetadata) await mergeAppMetadata(db, user.id, appMetadata);
  if (booleanField(body, 'email_confirm') === true) await confirmEmail(db, user.id);
  await applyBan(service, user.id, body);
  return jsonBody(await loadUserJson(db, user.id));
}

async function applyBan(service: AuthService, userId: string, body: Body): Promise<void> {
  const ban = stringField(body, 'ban_duration');
  if (!ban) return;
  if (ban === 'none') {
    await service.db.query('update auth.users set banned_until = null where id = $1', [userId]);
    return;
  }
  const seconds = duration(ban);
  if (seconds === undefined) throw validationFailed('invalid format for ban duration');
  // The sessions end first, so the Data API and Storage of this process hear of it at once; a
  // session started in between goes with the ban (the trigger on auth.users, schema.sql).
  await endSessions(service, 'user_id = $1', [userId]);
  await service.db.query(`update auth.users set banned_until = now() + make_interval(secs => $2) where id = $1`, [
    userId,
    seconds,
  ]);
}

export async function deleteUserRoute(service: AuthService, request: Request, id: string): Promise<Response> {
  await requireAdmin(service, request);
  const user = await requireUser(service, id);
  let sessionIds: string[];
  try {
    sessionIds = await service.db.transaction(async (tx) => {
      await tx.query(`select set_config('role', 'supabase_auth_admin', true), set_config('search_path', 'auth', true)`);
      // The sessions go by cascade; their access tokens are refused once the deletion commits.
      const sessions = await tx.query<{ id: string }>('select id from auth.sessions where user_id = $1', [user.id]);
      await tx.query('delete from auth.users where id = $1', [user.id]);
      return sessions.rows.map((row) => row.id);
    });
  } catch {
    throw new AuthError(500, 'unexpected_failure', 'Database error deleting user');
  }
  service.sessions.end(sessionIds, service.config.jwtExpiry);
  return jsonBody({});
}

const LINK_TYPES: Record<string, EmailType> = {
  signup: 'signup',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change_current: 'email_change',
  email_change_new: 'email_change',
};

/** `POST /admin/generate_link`: the token and link an email would carry, without sending it. */
export async function generateLink(service: AuthService, request: Request): Promise<Response> {
  await requireAdmin(service, request);
  const { db, config } = service;
  const body = await readJson(request);
  const type = stringField(body, 'type');
  const emailType = LINK_TYPES[type];
  if (!emailType) throw validationFailed('Invalid email action link type requested');
  const address = validateEmail(stringField(body, 'email'));
  const requested =
    new URL(request.url).searchParams.get('redirect_to') ??
    (typeof body.redirect_to === 'string' ? body.redirect_to : null);
  const redirectTo = resolveRedirect(requested, request, config, service.appOrigin());
  let user = await findUserByEmail(db, address);
  let target = address;
  if (type === 'signup' || type === 'invite') {
    if (user?.email_confirmed_at)
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
    if (!user) {
      const password = stringField(body, 'password');
      if (password) validateNewPassword(password, config.minimumPasswordLength, 'Password is required for signup link');
      user = await createUser(db, {
        email: address,
        password: type === 'signup' ? password || randomBytes(24).toString('base64url') : undefined,
        userMetadata: objectField(body, 'data') ?? {},
        provider: 'email',
        confirm: false,
        invited: type === 'invite',
      });
    }
  } else {
    if (!user) throw notFound('user_not_found', 'User with this email not found');
    if (emailType === 'email_change') {
      const newEmail = validateEmail(stringField(body, 'new_email'));
      if (await findUserByEmail(db, newEmail))
        throw unprocessable('email_exists', 'A user with this email address has already been registered');
      await db.query('update auth.users set email_change = $2 where id = $1', [user.id, newEmail]);
      target = newEmail;
    }
  }
  const { otp, token } = await issueEmailToken(db, user, emailType, target, false, config.otpLength);
  return jsonBody({
    ...(await loadUserJson(db, user.id)),
    action_link: verifyLink(service, token, emailType, redirectTo),
    email_otp: otp,
    hashed_token: token,
    verification_type: emailType,
    redirect_to: redirectTo,
  });
}

/**
 * Auth contract: sign-up, password sign-in, sessions,
 * refresh rotation, logout scopes, user updates, the admin API and refused JWTs — driven through
 * the real supabase-js and @supabase/ssr clients over HTTP.
 */
import {
  AuthApiError,
  AuthRetryableFetchError,
  AuthSessionMissingError,
  AuthWeakPasswordError,
} from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFetch, forgeJwt, jwtPayload, lastEmail, uniqueEmail } from '../support/auth-helpers';
import { anonClient, serviceClient } from '../support/clients';
import { startContractTarget, type ContractTarget } from '../support/contract-target';
import { ssrClient } from '../support/ssr-client';

let target: ContractTarget;

beforeAll(async () => {
  target = await startContractTarget({ auth: { enableConfirmations: false, refreshTokenReuseInterval: 0 } });
});
afterAll(() => target?.close());

async function signedUp(prefix: string, data: Record<string, unknown> = {}) {
  const email = uniqueEmail(prefix);
  const client = anonClient(target);
  const { data: result, error } = await client.auth.signUp({ email, password: 'correct-horse', options: { data } });
  expect(error).toBeNull();
  return { client, email, session: result.session!, user: result.user! };
}

describe('sign-up (confirmation off)', () => {
  it('returns a session, confirms the email and keeps the metadata', async () => {
    const { client, jar } = ssrClient(target);
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    const { data, error } = await client.auth.signUp({
      email: `Ada-${crypto.randomUUID().slice(0, 6)}@Example.com`,
      password: 'correct-horse',
      options: { data: { display_name: 'Ada', username: 'ada_l' } },
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email).toMatch(/^ada-.*@example\.com$/);
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.user_metadata).toMatchObject({
      display_name: 'Ada',
      email_verified: true,
      phone_verified: false,
    });
    expect(data.user?.identities).toHaveLength(1);
    expect(events).toContain('SIGNED_IN');
    const cookieName = `sb-${new URL(target.url).hostname.split('.')[0]}-auth-token`;
    const cookie = jar.cookies.get(cookieName) ?? jar.cookies.get(`${cookieName}.0`);
    expect(cookie?.startsWith('base64-')).toBe(true);
    if (target.backend) {
      const row = await target.backend.db.query<{ role: string; raw_user_meta_data: Record<string, unknown> }>(
        'select role, raw_user_meta_data from auth.users where id = $1',
        [data.user!.id],
      );
      expect(row.rows[0]?.role).toBe('authenticated');
      expect(row.rows[0]?.raw_user_meta_data).toMatchObject({ display_name: 'Ada', sub: data.user!.id });
      const profile = await target.backend.db.query<{ username: string }>(
        'select username from public.users where id = $1',
        [data.user!.id],
      );
      expect(profile.rows[0]?.username).toBe('ada_l');
    }
  });

  it('refuses a duplicate, a weak password and a malformed email', async () => {
    const { email } = await signedUp('dup');
    const client = anonClient(target);
    const duplicate = await client.auth.signUp({ email, password: 'correct-horse' });
    expect(duplicate.error).toBeInstanceOf(AuthApiError);
    expect(duplicate.error).toMatchObject({
      status: 422,
      code: 'user_already_exists',
      message: 'User already registered',
    });

    const weak = await client.auth.signUp({ email: uniqueEmail('weak'), password: '12345' });
    expect(weak.error).toBeInstanceOf(AuthWeakPasswordError);
    expect(weak.error).toMatchObject({
      status: 422,
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
    });
    expect((weak.error as AuthWeakPasswordError).reasons).toEqual(['length']);

    const invalid = await client.auth.signUp({ email: 'not-an-email', password: 'correct-horse' });
    expect(invalid.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unable to validate email address: invalid format',
    });
  });

  it('rolls everything back when an auth.users trigger fails', async () => {
    if (!target.backend) return;
    const db = target.backend.db;
    await db.exec(`
      create table if not exists public.auth_trigger_probe (id uuid primary key);
      create or replace function public.auth_trigger_probe_fn() returns trigger language plpgsql as $$
      begin insert into public.auth_trigger_probe (id) values (new.id); return new; end $$;
      create trigger auth_trigger_probe after insert on auth.users for each row execute function public.auth_trigger_probe_fn();`);
    try {
      const email = uniqueEmail('trigger');
      const { data, error } = await anonClient(target).auth.signUp({ email, password: 'correct-horse' });
      expect(error).toBeInstanceOf(AuthRetryableFetchError);
      expect(error).toMatchObject({ status: 500, message: 'Database error saving new user' });
      expect(error?.code).toBeUndefined();
      expect(data.user).toBeNull();
      const rows = await db.query('select 1 from auth.users where email = $1', [email]);
      expect(rows.rows).toHaveLength(0);
    } finally {
      await db.exec(
        'drop trigger auth_trigger_probe on auth.users; drop function public.auth_trigger_probe_fn(); drop table public.auth_trigger_probe;',
      );
    }
  });
});

describe('password sign-in and session', () => {
  it('issues the claims Supabase issues', async () => {
    const { email, user } = await signedUp('claims', { display_name: 'Claire' });
    const events: string[] = [];
    const client = anonClient(target);
    client.auth.onAuthStateChange((event) => events.push(event));
    const { data, error } = await client.auth.signInWithPassword({ email, password: 'correct-horse' });
    expect(error).toBeNull();
    const claims = jwtPayload(data.session!.access_token);
    expect(claims).toMatchObject({
      iss: `${target.url}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { display_name: 'Claire' },
    });
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((claims.amr as Array<{ method: string }>)[0]?.method).toBe('password');
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    expect(data.session!.expires_in).toBe(3600);
    expect(data.session!.token_type).toBe('bearer');
    expect(events).toContain('SIGNED_IN');
  });

  it('signs in the seeded demo accounts', async () => {
    if (!target.backend) return;
    const { data, error } = await anonClient(target).auth.signInWithPassword({
      email: 'buyer@demo.test',
      password: 'demo-password',
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe('buyer@demo.test');
  });

  it('answers invalid_credentials for a wrong password and an unknown email', async () => {
    const { email } = await signedUp('wrong');
    for (const credentials of [
      { email, password: 'not-the-password' },
      { email: uniqueEmail('nobody'), password: 'correct-horse' },
    ]) {
      const { error } = await anonClient(target).auth.signInWithPassword(credentials);
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    }
  });

  it('getUser and getClaims validate the token with GET /user', async () => {
    const { email, user } = await signedUp('getuser');
    const { client, requests } = ssrClient(target);
    await client.auth.signInWithPassword({ email, password: 'correct-horse' });
    requests.length = 0;
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);
    expect(data.user?.identities?.[0]?.provider).toBe('email');
    expect(requests).toEqual(['GET /auth/v1/user']);
    requests.length = 0;
    const claims = await client.auth.getClaims();
    expect(claims.data?.claims.sub).toBe(user.id);
    expect(requests).toEqual(['GET /auth/v1/user']);
  });

  it('rotates refresh tokens and revokes the family on reuse', async () => {
    const { client, session } = await signedUp('rotate');
    const first = session.refresh_token;
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session!.refresh_token;
    expect(second).not.toBe(first);
    expect(jwtPayload(refreshed.data.session!.access_token).session_id).toBe(
      jwtPayload(session.access_token).session_id,
    );

    // The client lost the answer: the previous token gives back the current one.
    const replay = await anonClient(target).auth.refreshSession({ refresh_token: first });
    expect(replay.error).toBeNull();
    expect(replay.data.session!.refresh_token).toBe(second);

    const third = (await anonClient(target).auth.refreshSession({ refresh_token: second })).data.session!.refresh_token;
    expect(third).not.toBe(second);
    // Two rotations old, outside the (zero) reuse interval → the whole session dies.
    const reuse = await anonClient(target).auth.refreshSession({ refresh_token: first });
    expect(reuse.error).toMatchObject({
      status: 400,
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    });
    const after = await anonClient(target).auth.refreshSession({ refresh_token: third });
    expect(after.error?.status).toBe(400);
    const user = await authFetch(target, '/user', { bearer: refreshed.data.session!.access_token });
    expect(user.status).toBe(403);
    expect(await user.json()).toMatchObject({ code: 'session_not_found' });
  });

  it('refuses an unknown refresh token', async () => {
    const { error } = await anonClient(target).auth.refreshSession({ refresh_token: 'nope' });
    expect(error).toMatchObject({
      status: 400,
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
  });

  it('refreshes an expiring cookie session exactly once', async () => {
    const { email } = await signedUp('expiring');
    const first = ssrClient(target);
    await first.client.auth.signInWithPassword({ email, password: 'correct-horse' });
    const cookieName = [...first.jar.cookies.keys()].find((name) => /-auth-token(\.0)?$/.test(name))!;
    const stored = JSON.parse(
      Buffer.from(first.jar.cookies.get(cookieName)!.slice('base64-'.length), 'base64url').toString(),
    );
    stored.expires_at = Math.floor(Date.now() / 1000) + 60;
    first.jar.cookies.clear();
    first.jar.cookies.set(
      cookieName.replace(/\.0$/, ''),
      `base64-${Buffer.from(JSON.stringify(stored)).toString('base64url')}`,
    );
    const second = ssrClient(target, first.jar);
    await second.client.auth.getSession();
    expect(second.requests.filter((request) => request.startsWith('POST /auth/v1/token'))).toEqual([
      'POST /auth/v1/token?grant_type=refresh_token',
    ]);
    const again = await anonClient(target).auth.refreshSession({ refresh_token: stored.refresh_token });
    expect(again.error).toBeNull(); // the previous token of the current one is tolerated (lost answer)
  });

  it('signOut() ends the session: the old access token is refused by /user', async () => {
    const { email } = await signedUp('signout');
    const { client, jar } = ssrClient(target);
    await client.auth.signInWithPassword({ email, password: 'correct-horse' });
    const accessToken = (await client.auth.getSession()).data.session!.access_token;
    expect(await client.auth.signOut()).toEqual({ error: null });
    expect([...jar.cookies.keys()].filter((name) => name.includes('auth-token'))).toEqual([]);
    expect((await client.auth.getSession()).data.session).toBeNull();
    const { error } = await anonClient(target).auth.getUser(accessToken);
    expect(error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('logout scopes local and others', async () => {
    const { email } = await signedUp('scopes');
    const a = anonClient(target);
    const b = anonClient(target);
    const sessionA = (await a.auth.signInWithPassword({ email, password: 'correct-horse' })).data.session!;
    const sessionB = (await b.auth.signInWithPassword({ email, password: 'correct-horse' })).data.session!;
    await a.auth.signOut({ scope: 'local' });
    expect((await anonClient(target).auth.getUser(sessionA.access_token)).error).toBeInstanceOf(
      AuthSessionMissingError,
    );
    expect((await b.auth.refreshSession()).error).toBeNull();

    const c = anonClient(target);
    await c.auth.signInWithPassword({ email, password: 'correct-horse' });
    expect((await c.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await c.auth.getUser()).error).toBeNull();
    expect(
      (await anonClient(target).auth.refreshSession({ refresh_token: sessionB.refresh_token })).error?.status,
    ).toBe(400);

    const bogus = await authFetch(target, '/logout?scope=everything', {
      method: 'POST',
      bearer: (await c.auth.getSession()).data.session!.access_token,
    });
    expect(bogus.status).toBe(400);
    expect(await bogus.json()).toEqual({ code: 'validation_failed', message: 'Unsupported logout scope "everything"' });
  });
});

describe('updating the user', () => {
  it('merges metadata, deletes null keys, refuses the same or a weak password', async () => {
    const { client } = await signedUp('update', { display_name: 'Ada', city: 'London' });
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    const updated = await client.auth.updateUser({ data: { display_name: 'Ada L.' } });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ display_name: 'Ada L.', city: 'London' });
    expect(events).toContain('USER_UPDATED');
    const session = (await client.auth.getSession()).data.session!;
    expect((jwtPayload(session.access_token).user_metadata as Record<string, unknown>).display_name).toBe('Ada');
    const removed = await client.auth.updateUser({ data: { city: null } });
    expect(removed.data.user?.user_metadata).not.toHaveProperty('city');

    // secure_password_change (config.toml): a new password comes with the current one.
    const same = await client.auth.updateUser({ password: 'correct-horse', current_password: 'correct-horse' });
    expect(same.error).toMatchObject({
      status: 422,
      code: 'same_password',
      message: 'New password should be different from the old password.',
    });
    const weak = await client.auth.updateUser({ password: '123' });
    expect(weak.error).toBeInstanceOf(AuthWeakPasswordError);
    const metadata = await authFetch(target, '/user', {
      method: 'PUT',
      bearer: session.access_token,
      body: JSON.stringify({ app_metadata: { role: 'admin' } }),
    });
    expect(metadata.status).toBe(403);
    expect(await metadata.json()).toMatchObject({ code: 'not_admin' });
  });

  it('changes the password, and the email once the new address confirms it (confirmations off too)', async () => {
    const { client, email } = await signedUp('change');
    const withCurrent = { password: 'new-password-1', current_password: 'correct-horse' };
    expect((await client.auth.updateUser(withCurrent)).error).toBeNull();
    const newEmail = uniqueEmail('changed');
    const changed = await client.auth.updateUser({ email: newEmail });
    // Someone holding the session alone cannot move the account: the address waits for its link.
    expect(changed.data.user?.email).toBe(email);
    expect(changed.data.user?.new_email).toBe(newEmail);
    const mail = await lastEmail(target, newEmail);
    expect(mail.type).toBe('email_change');
    const verified = await anonClient(target).auth.verifyOtp({ type: 'email_change', token_hash: mail.tokenHash });
    expect(verified.data.user?.email).toBe(newEmail);
    expect((await anonClient(target).auth.signInWithPassword({ email, password: 'new-password-1' })).error?.code).toBe(
      'invalid_credentials',
    );
    expect(
      (await anonClient(target).auth.signInWithPassword({ email: newEmail, password: 'new-password-1' })).error,
    ).toBeNull();
  });
});

describe('admin API', () => {
  it('creates, lists, reads, updates and deletes users', async () => {
    const admin = serviceClient(target).auth.admin;
    const email = uniqueEmail('admin-made');
    const created = await admin.createUser({
      email,
      password: 'correct-horse',
      email_confirm: true,
      user_metadata: { display_name: 'Bo', username: 'bo_made' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user?.email_confirmed_at).toBeTruthy();
    expect(created.data.user?.user_metadata.display_name).toBe('Bo');
    if (target.backend) {
      const profile = await target.backend.db.query<{ username: string }>(
        'select username from public.users where id = $1',
        [id],
      );
      expect(profile.rows[0]?.username).toBe('bo_made');
    }
    expect((await anonClient(target).auth.signInWithPassword({ email, password: 'correct-horse' })).error).toBeNull();

    const list = await admin.listUsers({ page: 1, perPage: 1000 });
    expect(list.error).toBeNull();
    expect(list.data.users.some((user) => user.id === id)).toBe(true);
    expect((await admin.getUserById(id)).data.user?.email).toBe(email);

    const updated = await admin.updateUserById(id, {
      app_metadata: { role: 'seller' },
      user_metadata: { display_name: 'Bob' },
    });
    expect(updated.data.user?.app_metadata).toMatchObject({ provider: 'email', role: 'seller' });
    expect(updated.data.user?.user_metadata.display_name).toBe('Bob');
    const session = (await anonClient(target).auth.signInWithPassword({ email, password: 'correct-horse' })).data
      .session!;
    expect(jwtPayload(session.access_token).app_metadata).toMatchObject({ role: 'seller' });

    const link = await admin.generateLink({
      type: 'recovery',
      email,
      options: { redirectTo: `${target.url}/auth/callback` },
    });
    expect(link.error).toBeNull();
    expect(link.data.properties?.action_link).toContain('/auth/v1/verify?token=');
    expect(link.data.properties?.verification_type).toBe('recovery');
    const verified = await anonClient(target).auth.verifyOtp({
      type: 'recovery',
      token_hash: link.data.properties!.hashed_token,
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.id).toBe(id);

    expect((await admin.deleteUser(id)).error).toBeNull();
    const gone = await admin.getUserById(id);
    expect(gone.error).toMatchObject({ status: 404, code: 'user_not_found' });
    if (target.backend) {
      expect((await target.backend.db.query('select 1 from public.users where id = $1', [id])).rows).toHaveLength(0);
    }
  });

  it('refuses the admin API without the service key', async () => {
    const { session } = await signedUp('not-admin');
    const response = await authFetch(target, '/admin/users', { bearer: session.access_token });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: 'not_admin', message: 'User not allowed' });
    const anon = await anonClient(target).auth.admin.listUsers();
    expect(anon.error).toMatchObject({ status: 403, code: 'not_admin' });
  });
});

describe('refused tokens and bad input', () => {
  it('refuses tampered, unsigned, expired and wrongly signed JWTs', async () => {
    const { session } = await signedUp('tamper');
    const claims = jwtPayload(session.access_token);
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      forgeJwt({ alg: 'none', typ: 'JWT' }, claims),
      forgeJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'not-the-secret'),
      forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, role: 'service_role' }, 'not-the-secret'),
      `${session.access_token.split('.')[0]}.${Buffer.from(JSON.stringify({ ...claims, sub: crypto.randomUUID() })).toString('base64url')}.${session.access_token.split('.')[2]}`,
      ...(target.backend
        ? [
            forgeJwt(
              { alg: 'HS256', typ: 'JWT' },
              { ...claims, iat: now - 7200, exp: now - 3600 },
              target.backend.keys.jwtSecret,
            ),
          ]
        : []),
      'garbage',
    ];
    for (const token of cases) {
      const response = await authFetch(target, '/user', { bearer: token });
      expect(response.status, token).toBe(403);
      expect((await response.json()) as { code: string }, token).toMatchObject({ code: 'bad_jwt' });
      const admin = await authFetch(target, '/admin/users', { bearer: token });
      expect(admin.status, token).toBe(403);
    }
    const expired = cases[4];
    if (expired) {
      const body = (await (await authFetch(target, '/user', { bearer: expired })).json()) as { message: string };
      expect(body.message).toContain('token is expired');
    }
    const anonAsUser = await authFetch(target, '/user');
    expect(anonAsUser.status).toBe(403);
    expect(await anonAsUser.json()).toEqual({ code: 'bad_jwt', message: 'invalid claim: missing sub claim' });
  });

  it('survives junk on every route without a 5xx', async () => {
    const { session } = await signedUp('junk');
    const bearer = session.access_token;
    const junk: Array<[string, string, string | undefined, string | undefined]> = [
      ['POST', '/verify', '{"type":"nope"}', undefined],
      ['POST', '/verify', '{"type":"signup","token":"1","token_hash":"2"}', undefined],
      ['POST', '/verify', '{"type":"email","token_hash":"x","email":"a@b.c"}', undefined],
      ['GET', '/verify', undefined, undefined],
      ['GET', '/verify?token=x&type=signup&redirect_to=javascript:alert(1)', undefined, undefined],
      ['POST', '/recover', '{}', undefined],
      ['POST', '/recover', '{"email":"a@b.c","code_challenge":"short","code_challenge_method":"s256"}', undefined],
      ['POST', '/otp', '{"email":["x"]}', undefined],
      ['POST', '/resend', '{"type":"bogus"}', undefined],
      ['POST', '/signup', '{"email":"a@b.c","password":"correct-horse","data":"not-an-object"}', undefined],
      ['POST', '/signup', '{"email":"a@b.c","password":"' + 'x'.repeat(80) + '"}', undefined],
      ['PUT', '/user', '{"data":[1]}', bearer],
      ['PUT', '/user', '{"email":"nope"}', bearer],
      ['POST', '/factors', '{"factor_type":"phone"}', bearer],
      ['POST', '/factors/not-a-uuid/challenge', '{}', bearer],
      ['POST', `/factors/${crypto.randomUUID()}/verify`, '{"challenge_id":"x","code":"1"}', bearer],
      ['DELETE', '/factors/%E0%A4%A', undefined, bearer],
      ['GET', '/admin/users/not-a-uuid', undefined, target.serviceRoleKey],
      ['PUT', `/admin/users/${crypto.randomUUID()}`, '{}', target.serviceRoleKey],
      ['POST', '/admin/users', '{"email":"x"}', target.serviceRoleKey],
      ['POST', '/admin/generate_link', '{"type":"weird","email":"a@b.c"}', target.serviceRoleKey],
      ['POST', '/admin/generate_link', `{"type":"magiclink","email":"${uniqueEmail('ghost')}"}`, target.serviceRoleKey],
      ['GET', '/authorize?provider=google&code_challenge=short&code_challenge_method=s256', undefined, undefined],
      ['GET', '/authorize?provider=github', undefined, undefined],
      ['GET', '/callback?code=x&state=y', undefined, undefined],
      ['POST', '/_local/google', 'state=nope&intent=new', undefined],
      ['GET', '/_local/google', undefined, undefined],
      ['PATCH', '/user', '{}', bearer],
    ];
    for (const [method, path, body, token] of junk) {
      const response = await authFetch(target, path, { method, body, bearer: token });
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
      expect(response.status, `${method} ${path}`).toBeGreaterThanOrEqual(300);
    }
  });

  it('answers bad input with 4xx, never 500', async () => {
    const badJson = await authFetch(target, '/token?grant_type=password', { method: 'POST', body: '{"email":' });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { code: string }).code).toBe('bad_json');
    expect(badJson.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    const grant = await authFetch(target, '/token?grant_type=magic', { method: 'POST', body: '{}' });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toEqual({ code: 'invalid_credentials', message: 'unsupported_grant_type' });
    const missing = await authFetch(target, '/token?grant_type=password', { method: 'POST', body: '{}' });
    expect(missing.status).toBe(400);
    const refresh = await authFetch(target, '/token?grant_type=refresh_token', { method: 'POST', body: '{}' });
    expect(await refresh.json()).toEqual({ error: 'invalid_request', error_description: 'refresh_token required' });
    const wrongTypes = await authFetch(target, '/signup', {
      method: 'POST',
      body: JSON.stringify({ email: 42, password: ['x'] }),
    });
    expect(wrongTypes.status).toBe(400);
    const arrayBody = await authFetch(target, '/signup', { method: 'POST', body: '[1,2]' });
    expect(arrayBody.status).toBe(400);
    const pkce = await authFetch(target, '/token?grant_type=pkce', {
      method: 'POST',
      body: JSON.stringify({ auth_code: 'x', code_verifier: 'y' }),
    });
    expect(pkce.status).toBe(404);
    expect(await pkce.json()).toMatchObject({ code: 'flow_state_not_found' });
    const unknown = await authFetch(target, '/nope');
    expect(unknown.status).toBe(404);
    const settings = (await (await authFetch(target, '/settings')).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({
      mailer_autoconfirm: true,
      disable_signup: false,
      // No Google client is configured and the development stand-in is off (as in production).
      external: { email: true, google: false },
    });
    const jwks = await fetch(`${target.url}/auth/v1/.well-known/jwks.json`);
    expect(await jwks.json()).toEqual({ keys: [] });
  });
});

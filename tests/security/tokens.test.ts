/**
 * Forged and stale tokens against the embedded Data API, Storage and Auth: alg none, a wrong
 * secret, expired, re-signed as service_role, a wrong audience, truncated; and a real session's
 * tokens once the session ended (sign-out, a password change, a ban, the user's deletion, refresh-token
 * reuse). Each must be refused (401, Storage's 400 "InvalidJWT", or GoTrue's 403 `bad_jwt` /
 * `session_not_found` on Auth) with none of the user's data in the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgeJwt, jwtPayload, uniqueEmail } from '../support/auth-helpers';
import { anonClient, serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { recordTally } from '../support/security-tally';

const PASSWORD = 'token-test-password';
let target: ContractTarget;

beforeAll(async () => {
  target = await startContractTarget({ seed: true, auth: { refreshTokenReuseInterval: 0 } });
});
afterAll(() => target?.close());

/** A fresh user, signed in, with an avatar in their Storage folder. */
async function newUser(prefix: string) {
  const email = uniqueEmail(prefix);
  const created = await serviceClient(target).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  await serviceClient(target)
    .storage.from('avatars')
    .upload(
      `${id}/avatar.png`,
      new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], { type: 'image/png' }),
    );
  return { id, email, session: await signIn(email) };
}

async function signIn(email: string, password = PASSWORD) {
  const { data, error } = await anonClient(target).auth.signInWithPassword({ email, password });
  if (error) throw error;
  return data.session;
}

/** What each service gives a bearer token: status and whether the user's own data came back. */
async function probes(token: string, userId: string) {
  const headers = { apikey: target.anonKey, authorization: `Bearer ${token}` };
  const rest = await fetch(`${target.url}/rest/v1/user_settings?select=user_id&user_id=eq.${userId}`, { headers });
  const restBody = await rest.text();
  const storage = await fetch(`${target.url}/storage/v1/object/authenticated/avatars/${userId}/avatar.png`, {
    headers,
  });
  const storageBody = await storage.text();
  const auth = await fetch(`${target.url}/auth/v1/user`, { headers });
  const authBody = await auth.text();
  return [
    { service: 'Data API', status: rest.status, leaked: restBody.includes(userId) },
    { service: 'Storage', status: storage.status, leaked: storage.ok || storageBody.includes('PNG') },
    { service: 'Auth', status: auth.status, leaked: authBody.includes(userId) },
  ];
}

async function refreshWorks(refreshToken: string): Promise<boolean> {
  const { data } = await anonClient(target).auth.refreshSession({ refresh_token: refreshToken });
  return Boolean(data.session);
}

describe.skipIf(isHostedTarget)('forged and stale tokens', () => {
  it('refuses forged JWTs on the Data API, Storage and Auth, returning nothing', async () => {
    const user = await newUser('forged');
    const valid = user.session.access_token;
    // The valid token reads: the probes can tell accepted from refused.
    expect((await probes(valid, user.id)).map((probe) => [probe.status, probe.leaked])).toEqual([
      [200, true],
      [200, true],
      [200, true],
    ]);
    const claims = jwtPayload(valid);
    const secret = target.backend!.keys.jwtSecret;
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: 'HS256', typ: 'JWT' };
    const [head, body, signature] = valid.split('.') as [string, string, string];
    const forged: Record<string, string> = {
      'alg none': forgeJwt({ alg: 'none', typ: 'JWT' }, claims),
      'alg none, no dot': `${head}.${body}`,
      'wrong secret': forgeJwt(header, claims, 'not-the-secret-but-long-enough-for-hs256'),
      'payload changed, signature kept': `${head}.${Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url')}.${signature}`,
      'expired (right secret)': forgeJwt(header, { ...claims, iat: now - 7200, exp: now - 3600 }, secret),
      'not yet valid (right secret)': forgeJwt(header, { ...claims, nbf: now + 3600 }, secret),
      'role service_role re-signed (wrong secret)': forgeJwt(
        header,
        { ...claims, role: 'service_role' },
        'attacker-secret-attacker-secret!!',
      ),
      'role service_role re-signed with the anon key': forgeJwt(
        header,
        { ...claims, role: 'service_role' },
        target.anonKey,
      ),
      'wrong audience (right secret)': forgeJwt(header, { ...claims, aud: 'another-project' }, secret),
      'truncated signature': valid.slice(0, -8),
      'signature removed': `${head}.${body}.`,
      'truncated payload': `${head}.${body.slice(0, -6)}.${signature}`,
      'HS512 header, HS256 signature': `${Buffer.from('{"alg":"HS512","typ":"JWT"}').toString('base64url')}.${body}.${signature}`,
    };
    const failures: string[] = [];
    let cases = 0;
    for (const [name, token] of Object.entries(forged)) {
      for (const probe of await probes(token, user.id)) {
        cases++;
        if (probe.status < 400 || probe.leaked)
          failures.push(`${name} → ${probe.service} ${probe.status}${probe.leaked ? ' with data' : ''}`);
      }
    }
    recordTally({ check: 'JWT tampering', counts: 'forged tokens accepted or answered with data', cases, failures });
    expect(failures).toEqual([]);
  });

  it('refuses a session’s tokens once the session ends: sign-out, password change, ban, deletion, reuse', async () => {
    // Auth (the app's authority: every request's getUser) and refresh must refuse them; so must
    // the Data API and Storage, at once rather than when the token expires (ADR 020; PostgREST
    // and storage-api check the JWT alone and would serve it for up to jwt_expiry, 1 h).
    const failures: string[] = [];
    const stale: string[] = [];
    let cases = 0;
    let staleCases = 0;
    const expectDead = async (
      when: string,
      session: { access_token: string; refresh_token: string },
      userId: string,
      { refresh = true } = {},
    ) => {
      for (const probe of await probes(session.access_token, userId)) {
        const dead = probe.status >= 400 && !probe.leaked;
        if (probe.service === 'Auth') {
          cases++;
          if (!dead) failures.push(`${when}: access token → Auth ${probe.status}`);
        } else {
          staleCases++;
          if (!dead) stale.push(`${when}: access token → ${probe.service} ${probe.status}`);
        }
      }
      if (!refresh) return;
      cases++;
      if (await refreshWorks(session.refresh_token)) failures.push(`${when}: refresh token still refreshes`);
    };
    const expectAlive = async (when: string, accessToken: string, userId: string) => {
      expect(
        (await probes(accessToken, userId)).map((probe) => `${probe.service} ${probe.status}`),
        when,
      ).toEqual(['Data API 200', 'Storage 200', 'Auth 200']);
    };

    const signedOut = await newUser('signed-out');
    const client = anonClient(target);
    await client.auth.setSession(signedOut.session);
    expect((await client.auth.signOut({ scope: 'local' })).error).toBeNull();
    await expectDead('after sign-out', signedOut.session, signedOut.id);

    const everywhere = await newUser('global-out');
    const elsewhere = await signIn(everywhere.email);
    const leaver = anonClient(target);
    await leaver.auth.setSession(elsewhere);
    expect((await leaver.auth.signOut({ scope: 'global' })).error).toBeNull();
    await expectDead('after a global sign-out elsewhere', everywhere.session, everywhere.id);

    const changed = await newUser('new-password');
    const other = await signIn(changed.email); // the session that changes the password
    const changer = anonClient(target);
    await changer.auth.setSession(other);
    const change = { password: 'a-brand-new-password', current_password: PASSWORD };
    expect((await changer.auth.updateUser(change)).error).toBeNull();
    await expectDead('after a password change (the other session)', changed.session, changed.id);
    const kept = (await changer.auth.getSession()).data.session!;
    await expectAlive('the session that changed the password', kept.access_token, changed.id);

    const banned = await newUser('banned');
    const ban = await serviceClient(target).auth.admin.updateUserById(banned.id, { ban_duration: '876000h' });
    expect(ban.error).toBeNull();
    await expectDead('after a ban', banned.session, banned.id);

    const deleted = await newUser('deleted');
    expect((await serviceClient(target).auth.admin.deleteUser(deleted.id)).error).toBeNull();
    await expectDead('after the user’s deletion', deleted.session, deleted.id, { refresh: false });

    // Reuse detection: an old refresh token presented after two rotations ends the session.
    const reused = await newUser('reused');
    const first = await anonClient(target).auth.refreshSession({ refresh_token: reused.session.refresh_token });
    const second = await anonClient(target).auth.refreshSession({ refresh_token: first.data.session!.refresh_token });
    await expectAlive('a rotated session', second.data.session!.access_token, reused.id);
    expect(await refreshWorks(reused.session.refresh_token)).toBe(false);
    await expectDead('after refresh-token reuse', second.data.session!, reused.id);

    recordTally({
      check: 'Stale sessions (Auth)',
      counts: 'old access/refresh tokens Auth still accepts',
      cases,
      failures,
    });
    recordTally({
      check: 'Stale access tokens (Data API, Storage)',
      counts: 'old access tokens the Data API or Storage still answer after their session ended',
      cases: staleCases,
      failures: stale,
    });
    expect(failures).toEqual([]);
    expect(stale).toEqual([]);

    // The refusal is each service's own JWT error, naming the reason.
    const headers = { apikey: target.anonKey, authorization: `Bearer ${signedOut.session.access_token}` };
    const rest = await fetch(`${target.url}/rest/v1/user_settings?select=user_id`, { headers });
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toMatch(/invalid_token/);
    expect(await rest.json()).toMatchObject({
      code: 'PGRST303',
      message: 'Session from session_id claim in JWT does not exist',
    });
    const storage = await fetch(`${target.url}/storage/v1/object/list/avatars`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ prefix: signedOut.id }),
    });
    expect(storage.status).toBe(400);
    expect(await storage.json()).toMatchObject({
      statusCode: '403',
      error: 'Unauthorized',
      message: 'Session from session_id claim in JWT does not exist',
    });
  });
});

/**
 * Forged and stale tokens against the embedded Data API, Storage and Auth: alg none, a wrong
 * secret, expired, re-signed as service_role, a wrong audience, truncated; and a real session's
 * tokens after sign-out, after a password change and after a ban. Each must be refused (401, or
 * GoTrue's 403 `bad_jwt` / `session_not_found` on Auth) with none of the user's data in the answer.
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
    .upload(`${id}/avatar.png`, new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }));
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

  it('refuses a session’s tokens after sign-out, a password change and a ban', async () => {
    // Auth (the app's authority: every request's getUser) and refresh must refuse them. The Data
    // API and Storage verify the JWT alone, as PostgREST and storage-api do: an old access token
    // works there until it expires (jwt_expiry, 1 h). Counted on a row of its own, not hidden.
    const failures: string[] = [];
    const stateless: string[] = [];
    let cases = 0;
    const expectDead = async (
      when: string,
      session: { access_token: string; refresh_token: string },
      userId: string,
    ) => {
      for (const probe of await probes(session.access_token, userId)) {
        cases++;
        if (probe.status < 400 || probe.leaked) {
          (probe.service === 'Auth' ? failures : stateless).push(
            `${when}: access token → ${probe.service} ${probe.status}`,
          );
        }
      }
      cases++;
      if (await refreshWorks(session.refresh_token)) failures.push(`${when}: refresh token still refreshes`);
    };

    const signedOut = await newUser('signed-out');
    const client = anonClient(target);
    await client.auth.setSession(signedOut.session);
    expect((await client.auth.signOut({ scope: 'local' })).error).toBeNull();
    await expectDead('after sign-out', signedOut.session, signedOut.id);

    const changed = await newUser('new-password');
    const other = await signIn(changed.email); // the session that changes the password
    const changer = anonClient(target);
    await changer.auth.setSession(other);
    expect((await changer.auth.updateUser({ password: 'a-brand-new-password' })).error).toBeNull();
    await expectDead('after a password change (the other session)', changed.session, changed.id);

    const banned = await newUser('banned');
    const ban = await serviceClient(target).auth.admin.updateUserById(banned.id, { ban_duration: '876000h' });
    expect(ban.error).toBeNull();
    await expectDead('after a ban', banned.session, banned.id);

    recordTally({
      check: 'Stale sessions (Auth)',
      counts: 'old access/refresh tokens Auth still accepts',
      cases,
      failures,
    });
    recordTally({
      check: 'Stale access tokens (Data API, Storage)',
      counts: 'old access tokens still answered until they expire (stateless JWT)',
      cases: 6,
      failures: stateless,
    });
    expect(failures).toEqual([]);
  });
});

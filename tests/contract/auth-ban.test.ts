/**
 * Auth contract: banning a user through the admin API (`updateUserById(id, { ban_duration })`),
 * as GoTrue does it: the password sign-in is refused with 400 `user_banned`, the sessions and
 * refresh tokens the user had stop working, and `ban_duration: 'none'` lifts the ban. Every other
 * way in is shut too: no code or link is mailed to them, one mailed before the ban is refused
 * (`/otp`, `/recover` + `/verify`), so is the PKCE grant a link leads to, and a token the user
 * still holds is refused by the Data API and Storage.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '@agentmarket/supabase-embedded';
import { uniqueEmail } from '../support/auth-helpers';
import { anonClient, serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

let target: ContractTarget;

beforeAll(async () => {
  target = await startContractTarget({ auth: { enableConfirmations: false, refreshTokenReuseInterval: 0 } });
});
afterAll(() => target?.close());

describe('banning a user', () => {
  it('refuses their sign-in, ends their sessions and lifts with ban_duration none', async () => {
    const admin = serviceClient(target).auth.admin;
    const email = uniqueEmail('banned');
    const password = 'correct-horse';
    const created = await admin.createUser({ email, password, email_confirm: true });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    const signedIn = await anonClient(target).auth.signInWithPassword({ email, password });
    expect(signedIn.error).toBeNull();
    const session = signedIn.data.session!;

    const banned = await admin.updateUserById(id, { ban_duration: '876000h' });
    expect(banned.error).toBeNull();
    expect(Date.parse(banned.data.user!.banned_until!)).toBeGreaterThan(Date.now() + 365 * 24 * 3600 * 1000);

    const refused = await anonClient(target).auth.signInWithPassword({ email, password });
    expect(refused.error).toMatchObject({ status: 400, code: 'user_banned', message: 'User is banned' });
    expect(refused.data.session).toBeNull();

    // The session they had is over: its access token no longer reads the user, its refresh token
    // gives no new session.
    // (supabase-js reports GoTrue's 403 session_not_found as a missing session.)
    const current = await anonClient(target).auth.getUser(session.access_token);
    expect(current.error).not.toBeNull();
    expect(current.data.user).toBeNull();
    const refreshed = await anonClient(target).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).not.toBeNull();
    expect(refreshed.error!.status).toBe(400);
    expect(refreshed.data.session).toBeNull();

    const lifted = await admin.updateUserById(id, { ban_duration: 'none' });
    expect(lifted.error).toBeNull();
    expect(lifted.data.user!.banned_until ?? null).toBeNull();
    expect((await anonClient(target).auth.signInWithPassword({ email, password })).error).toBeNull();
    await admin.deleteUser(id);
  });

  it('refuses a ban duration it cannot read', async () => {
    const admin = serviceClient(target).auth.admin;
    const created = await admin.createUser({ email: uniqueEmail('ban-format'), password: 'correct-horse' });
    const id = created.data.user!.id;
    const answer = await admin.updateUserById(id, { ban_duration: 'forever' });
    expect(answer.error).toMatchObject({ status: 400 });
    await admin.deleteUser(id);
  });
});

const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe.skipIf(isHostedTarget)('a banned user', () => {
  const password = 'banned-password';

  async function bannedUser(prefix: string) {
    const admin = serviceClient(target).auth.admin;
    const email = uniqueEmail(prefix);
    const created = await admin.createUser({ email, password, email_confirm: true });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect((await admin.updateUserById(id, { ban_duration: '876000h' })).error).toBeNull();
    return { id, email };
  }

  const latestMail = async (to: string) => (await readOutbox(target.backend!.db, { to, limit: 1 }))[0]!;
  const sessionsOf = async (id: string) =>
    (await target.backend!.db.query('select id from auth.sessions where user_id = $1', [id])).rows.length;

  it('is mailed no code or link (/otp, /recover), with the same answer as anyone', async () => {
    const magicUser = await bannedUser('banned-magic');
    const recoveryUser = await bannedUser('banned-reset');
    const client = anonClient(target);
    const mailCount = async (to: string) => (await readOutbox(target.backend!.db, { to, limit: 10 })).length;
    expect(
      (await client.auth.signInWithOtp({ email: magicUser.email, options: { shouldCreateUser: false } })).error,
    ).toBeNull();
    expect((await client.auth.resetPasswordForEmail(recoveryUser.email)).error).toBeNull();
    expect(await mailCount(magicUser.email)).toBe(0);
    expect(await mailCount(recoveryUser.email)).toBe(0);
  });

  it('answers as for an active account: the same too-soon refusal, and sign-up as for a taken address', async () => {
    const client = anonClient(target);
    const active = uniqueEmail('active-twice');
    expect(
      (await serviceClient(target).auth.admin.createUser({ email: active, password, email_confirm: true })).error,
    ).toBeNull();
    const { email: banned } = await bannedUser('banned-twice');
    const twice = async (email: string) => {
      const first = await client.auth.resetPasswordForEmail(email);
      const second = await client.auth.resetPasswordForEmail(email);
      return [first.error?.status ?? 200, second.error?.status ?? 200];
    };
    expect(await twice(banned)).toEqual(await twice(active));

    // Signing up again with the address of a banned account that never confirmed it changes
    // nothing and mails nothing.
    const admin = serviceClient(target).auth.admin;
    const unconfirmed = uniqueEmail('banned-unconfirmed');
    const made = await admin.createUser({ email: unconfirmed, password });
    expect((await admin.updateUserById(made.data.user!.id, { ban_duration: '876000h' })).error).toBeNull();
    const before = await target.backend!.db.query<{ encrypted_password: string }>(
      'select encrypted_password from auth.users where email = $1',
      [unconfirmed],
    );
    const again = await client.auth.signUp({ email: unconfirmed, password: 'another-password' });
    expect(again.error).toMatchObject({ code: 'user_already_exists' });
    const after = await target.backend!.db.query('select encrypted_password from auth.users where email = $1', [
      unconfirmed,
    ]);
    expect(after.rows).toEqual(before.rows);
    expect((await readOutbox(target.backend!.db, { to: unconfirmed, limit: 10 })).length).toBe(0);
  });

  it('gets no session from a code or link mailed before the ban (/otp, /recover + /verify)', async () => {
    const admin = serviceClient(target).auth.admin;
    const client = anonClient(target);
    const accounts = await Promise.all(
      ['banned-otp', 'banned-recover'].map(async (prefix) => {
        const email = uniqueEmail(prefix);
        const created = await admin.createUser({ email, password, email_confirm: true });
        expect(created.error).toBeNull();
        return { id: created.data.user!.id, email };
      }),
    );
    const [magicUser, recoveryUser] = accounts as [(typeof accounts)[number], (typeof accounts)[number]];
    await client.auth.signInWithOtp({ email: magicUser.email, options: { shouldCreateUser: false } });
    await client.auth.resetPasswordForEmail(recoveryUser.email);
    const magic = await latestMail(magicUser.email);
    const recovery = await latestMail(recoveryUser.email);
    for (const { id } of accounts)
      expect((await admin.updateUserById(id, { ban_duration: '876000h' })).error).toBeNull();

    const byCode = await client.auth.verifyOtp({ email: magicUser.email, token: magic.otp, type: 'email' });
    expect(byCode.error).toMatchObject({ status: 403, code: 'user_banned' });
    expect(byCode.data.session).toBeNull();
    const byHash = await client.auth.verifyOtp({ token_hash: recovery.tokenHash, type: 'recovery' });
    expect(byHash.error).toMatchObject({ status: 403, code: 'user_banned' });
    // The link in the email: back to the app with the error, no tokens in the fragment.
    const link = await fetch(recovery.link, { redirect: 'manual' });
    expect(link.status).toBe(303);
    const location = link.headers.get('location') ?? '';
    expect(location).toContain('error_code=user_banned');
    expect(location).not.toContain('access_token');
    expect(await sessionsOf(magicUser.id)).toBe(0);
    expect(await sessionsOf(recoveryUser.id)).toBe(0);
  });

  it('gets no session from the PKCE grant a recovery link leads to', async () => {
    const email = uniqueEmail('banned-pkce');
    const admin = serviceClient(target).auth.admin;
    const created = await admin.createUser({ email, password, email_confirm: true });
    const id = created.data.user!.id;
    // The recovery link is requested and followed before the ban: the auth code is out.
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const recover = await fetch(`${target.url}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: target.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, code_challenge: challenge, code_challenge_method: 's256' }),
    });
    expect(recover.status).toBe(200);
    const link = await fetch((await latestMail(email)).link, { redirect: 'manual' });
    const code = new URL(link.headers.get('location')!).searchParams.get('code');
    expect(code).toBeTruthy();
    expect((await admin.updateUserById(id, { ban_duration: '876000h' })).error).toBeNull();

    const grant = await fetch(`${target.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { apikey: target.anonKey, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
    });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toEqual({ code: 'user_banned', message: 'User is banned' });
    expect(await sessionsOf(id)).toBe(0);
  });

  it('is refused by the Data API and Storage with a token they still hold', async () => {
    const email = uniqueEmail('banned-token');
    const admin = serviceClient(target).auth.admin;
    const id = (await admin.createUser({ email, password, email_confirm: true })).data.user!.id;
    const session = (await anonClient(target).auth.signInWithPassword({ email, password })).data.session!;
    await serviceClient(target)
      .storage.from('avatars')
      .upload(`${id}/avatar.png`, new Blob([Buffer.from(ONE_PIXEL_PNG, 'base64')], { type: 'image/png' }));
    const headers = { apikey: target.anonKey, authorization: `Bearer ${session.access_token}` };
    const rest = () => fetch(`${target.url}/rest/v1/user_settings?select=user_id&user_id=eq.${id}`, { headers });
    const storage = () => fetch(`${target.url}/storage/v1/object/authenticated/avatars/${id}/avatar.png`, { headers });
    expect((await rest()).status).toBe(200);
    expect((await storage()).status).toBe(200);

    // Banned by SQL (an operator, another process), not through the admin API that ends sessions.
    await target.backend!.db.query(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [id]);
    let statuses: number[] = [];
    for (let wait = 0; wait < 40; wait++) {
      statuses = [(await rest()).status, (await storage()).status];
      if (statuses.every((status) => status >= 400)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(statuses).toEqual([401, 400]);
    const refresh = await anonClient(target).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.data.session).toBeNull();
    expect(refresh.error!.status).toBe(400);
  });
});

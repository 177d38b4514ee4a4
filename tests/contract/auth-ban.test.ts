/**
 * Auth contract: banning a user through the admin API (`updateUserById(id, { ban_duration })`),
 * as GoTrue does it: the password sign-in is refused with 400 `user_banned`, the sessions and
 * refresh tokens the user had stop working, and `ban_duration: 'none'` lifts the ban.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/auth-helpers';
import { anonClient, serviceClient } from '../support/clients';
import { startContractTarget, type ContractTarget } from '../support/contract-target';

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

/**
 * Auth contract: what the password alone cannot do once a second factor is on, and what a
 * password change needs. Attacks, each as the embedded Auth answers them over HTTP:
 * - someone who has only the password (an aal1 session) of a user with a verified TOTP factor
 *   changes that user's email and password in one `PUT /user`: refused with GoTrue's 401
 *   `insufficient_aal`, nothing changes and the owner's session lives on;
 * - with `secure_password_change` (this project's config.toml), a session without the current
 *   password or a reauthentication code changes the password: refused (`reauthentication_needed`),
 *   a wrong current password or code too; the session a recovery link started needs neither;
 * - factor codes guessed from many addresses against one account: limited per account too.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../packages/supabase-embedded/src/auth/totp';
import { readOutbox } from '@agentmarket/supabase-embedded';
import { authFetch, jwtPayload, uniqueEmail } from '../support/auth-helpers';
import { anonClient, serviceClient, userClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { fetchFrom } from '../support/fetch-from';

const PASSWORD = 'first-factor-password';
let target: ContractTarget;

beforeAll(async () => {
  target = await startContractTarget({ auth: { securePasswordChange: true } });
});
afterAll(() => target?.close());

async function newUser(prefix: string): Promise<{ id: string; email: string }> {
  const email = uniqueEmail(prefix);
  const created = await serviceClient(target).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  expect(created.error).toBeNull();
  return { id: created.data.user!.id, email };
}

async function signedIn(email: string, password = PASSWORD): Promise<SupabaseClient> {
  const client = anonClient(target);
  const { error } = await client.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return client;
}

/** The owner turns two-factor sign-in on: their session is aal2 from then on. */
async function withVerifiedFactor(client: SupabaseClient): Promise<{ factorId: string; secret: string }> {
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
  expect(enrolled.error).toBeNull();
  const { id: factorId, totp } = enrolled.data!;
  const verified = await client.auth.mfa.challengeAndVerify({ factorId, code: totpCode(totp.secret) });
  expect(verified.error).toBeNull();
  return { factorId, secret: totp.secret };
}

const accessTokenOf = async (client: SupabaseClient) => (await client.auth.getSession()).data.session!.access_token;

describe('a user with a verified second factor', () => {
  it('keeps email and password when someone with only the password asks to change both', async () => {
    const victim = await newUser('aal-victim');
    const owner = await signedIn(victim.email);
    await withVerifiedFactor(owner);
    expect(jwtPayload(await accessTokenOf(owner)).aal).toBe('aal2');

    // The attacker knows the password: an aal1 session, the code step still owed.
    const attacker = await signedIn(victim.email);
    const aal1 = await accessTokenOf(attacker);
    expect(jwtPayload(aal1).aal).toBe('aal1');
    const attackerEmail = uniqueEmail('attacker');
    const response = await authFetch(target, '/user', {
      method: 'PUT',
      bearer: aal1,
      body: JSON.stringify({ email: attackerEmail, password: 'attacker-password', current_password: PASSWORD }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      code: 'insufficient_aal',
      message: 'AAL2 session is required to update email or password when MFA is enabled.',
    });
    // Either one alone is refused as well.
    for (const change of [{ email: attackerEmail }, { password: 'attacker-password', current_password: PASSWORD }]) {
      const alone = await authFetch(target, '/user', { method: 'PUT', bearer: aal1, body: JSON.stringify(change) });
      expect(alone.status).toBe(401);
    }

    // Nothing changed: the address, the password, and the owner's session.
    const user = (await serviceClient(target).auth.admin.getUserById(victim.id)).data.user!;
    expect(user.email).toBe(victim.email);
    expect(user.new_email ?? null).toBeNull();
    expect((await anonClient(target).auth.signInWithPassword({ email: victim.email, password: PASSWORD })).error).toBe(
      null,
    );
    const ownerToken = await accessTokenOf(owner);
    expect((await anonClient(target).auth.getUser(ownerToken)).data.user?.email).toBe(victim.email);
    const rows = await userClient(target, ownerToken).from('user_settings').select('user_id').eq('user_id', victim.id);
    expect(rows.error).toBeNull();
    expect(rows.data).toEqual([{ user_id: victim.id }]);

    // The owner, at aal2, with their current password, still may.
    const changed = await owner.auth.updateUser({ password: 'owner-new-password', current_password: PASSWORD });
    expect(changed.error).toBeNull();
  });
});

describe('a password change with secure_password_change on', () => {
  it('needs the current password or a reauthentication code', async () => {
    const { email } = await newUser('reauth');
    const client = await signedIn(email);

    const bare = await client.auth.updateUser({ password: 'stolen-session-password' });
    expect(bare.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    const wrong = await client.auth.updateUser({ password: 'stolen-session-password', current_password: 'guess' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'current_password_mismatch' });
    const badNonce = await client.auth.updateUser({ password: 'stolen-session-password', nonce: '000000' });
    expect(badNonce.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    expect((await anonClient(target).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    const withCurrent = await client.auth.updateUser({ password: 'second-password', current_password: PASSWORD });
    expect(withCurrent.error).toBeNull();

    expect((await client.auth.reauthenticate()).error).toBeNull();
    const [mail] = await readOutbox(target.backend!.db, { to: email, limit: 1 });
    expect(mail!.type).toBe('reauthentication');
    expect(mail!.link).toBe('');
    const withNonce = await client.auth.updateUser({ password: 'third-password', nonce: mail!.otp });
    expect(withNonce.error).toBeNull();
    // A code works once.
    const again = await client.auth.updateUser({ password: 'fourth-password', nonce: mail!.otp });
    expect(again.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    expect((await anonClient(target).auth.signInWithPassword({ email, password: 'third-password' })).error).toBeNull();
  });

  it('a wrong code spends it: codes cannot be guessed one after another', async () => {
    const { email } = await newUser('reauth-guess');
    const client = await signedIn(email);
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const [mail] = await readOutbox(target.backend!.db, { to: email, limit: 1 });
    const guess = mail!.otp === '123456' ? '654321' : '123456';
    expect((await client.auth.updateUser({ password: 'guessed-password', nonce: guess })).error).toMatchObject({
      code: 'reauthentication_not_valid',
    });
    expect((await client.auth.updateUser({ password: 'guessed-password', nonce: mail!.otp })).error).toMatchObject({
      code: 'reauthentication_not_valid',
    });
  });

  it('needs neither in the session a recovery code started', async () => {
    const { email } = await newUser('recovered');
    const client = anonClient(target);
    expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull();
    const [mail] = await readOutbox(target.backend!.db, { to: email, limit: 1 });
    const verified = await client.auth.verifyOtp({ email, token: mail!.otp, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect((await client.auth.updateUser({ password: 'recovered-password' })).error).toBeNull();
    expect((await anonClient(target).auth.signInWithPassword({ email, password: 'recovered-password' })).error).toBe(
      null,
    );
  });
});

describe.skipIf(isHostedTarget)('factor verification limits', () => {
  it('counts codes per account, whatever the address they come from', async () => {
    const LIMIT = 3;
    const limited = await startContractTarget({
      realRateLimits: true,
      auth: { rateLimits: { tokenVerifications: LIMIT, signInSignUps: 100 } },
    });
    try {
      const email = uniqueEmail('guessed');
      await serviceClient(limited).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
      const owner = anonClient(limited);
      expect((await owner.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
      const enrolled = (await owner.auth.mfa.enroll({ factorType: 'totp' })).data!;
      const ownerCode = totpCode(enrolled.totp.secret);
      // The attacker has the password and tries codes, each from a new address.
      const attacker = anonClient(limited);
      expect((await attacker.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
      const bearer = (await attacker.auth.getSession()).data.session!.access_token;
      const statuses: number[] = [];
      for (let attempt = 0; attempt < LIMIT + 2; attempt++) {
        const from = fetchFrom(`127.0.4.${attempt + 1}`);
        const headers = {
          apikey: limited.anonKey,
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
        };
        const challenge = await from(`${limited.url}/auth/v1/factors/${enrolled.id}/challenge`, {
          method: 'POST',
          headers,
          body: '{}',
        });
        if (challenge.status !== 200) {
          statuses.push(challenge.status);
          continue;
        }
        const { id } = (await challenge.json()) as { id: string };
        const guess = ownerCode === '000000' ? '111111' : '000000';
        const verify = await from(`${limited.url}/auth/v1/factors/${enrolled.id}/verify`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ challenge_id: id, code: guess }),
        });
        statuses.push(verify.status);
      }
      // Challenges and verifications of one account share its budget: far fewer than one per address.
      expect(statuses.filter((status) => status === 422).length).toBeLessThan(LIMIT);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

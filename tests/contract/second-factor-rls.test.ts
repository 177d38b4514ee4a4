/**
 * Two-factor sign-in enforced by the database (migration 20261127000900_second_factor_rls.sql):
 * a user with a verified TOTP factor reaches their rows through the Data API only with an aal2
 * session; the password alone (aal1) reads and writes nothing. Users without a factor are not
 * affected, and every table with row-level security carries the policy.
 */
import { createHmac } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/auth-helpers';
import { anonClient, serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

const PASSWORD = 'second-factor-password';
let target: ContractTarget;

beforeAll(async () => {
  target = await startContractTarget();
});
afterAll(() => target?.close());

function totp(secret: string, at = Date.now() / 1000): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30)));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0xf;
  return ((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, '0');
}

async function signedIn(email: string): Promise<SupabaseClient> {
  const client = anonClient(target);
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return client;
}

async function ownProfile(client: SupabaseClient, id: string) {
  return client.from('user_settings').select('user_id').eq('user_id', id);
}

describe('a user with two-factor sign-in', () => {
  it('reads and writes their rows only after the second step', async () => {
    const email = uniqueEmail('aal-rls');
    const created = await serviceClient(target).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;

    const first = await signedIn(email);
    expect((await ownProfile(first, id)).data).toEqual([{ user_id: id }]); // no factor yet: as before

    const factor = (await first.auth.mfa.enroll({ factorType: 'totp' })).data!;
    const challenge = (await first.auth.mfa.challenge({ factorId: factor.id })).data!;
    const verified = await first.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.id,
      code: totp(factor.totp.secret),
    });
    expect(verified.error).toBeNull();
    expect((await ownProfile(first, id)).data).toEqual([{ user_id: id }]); // aal2

    const passwordOnly = await signedIn(email); // aal1
    expect((await passwordOnly.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');
    expect((await ownProfile(passwordOnly, id)).data).toEqual([]);
    const write = await passwordOnly
      .from('user_settings')
      .update({ two_factor_auth: false })
      .eq('user_id', id)
      .select();
    expect(write.data ?? []).toEqual([]);
  });

  it.skipIf(isHostedTarget)('every table with row-level security carries the policy, and storage.objects', async () => {
    const { rows } = await target.backend!.db.query<{ table: string }>(
      `select c.oid::regclass::text as table
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relrowsecurity
         and not exists (select 1 from pg_policy p where p.polrelid = c.oid and p.polname = 'second factor when enrolled'
                         and not p.polpermissive)
       union all
       select 'storage.objects' where not exists (
         select 1 from pg_policy p where p.polrelid = 'storage.objects'::regclass and p.polname = 'second factor when enrolled')`,
    );
    expect(
      rows.map((row) => row.table),
      'tables without the second-factor policy',
    ).toEqual([]);
  });
});

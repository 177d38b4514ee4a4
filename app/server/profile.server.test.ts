/**
 * Saving a profile against the embedded backend: a case variant or look-alike of another user's
 * name gets the "already taken" message (409), whether the availability check catches it
 * first or the database's unique indexes (23505) do.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { PROFILE_MESSAGES, ProfileFormSchema } from '~/schemas/profile';
import { updateProfile } from './profile.server';

describe.skipIf(isHostedTarget)('updateProfile and look-alike usernames', () => {
  let target: ContractTarget;
  let client: SupabaseClient;
  let userId = '';
  const suffix = Date.now().toString(36);
  const mine = `ilse_${suffix}`;

  async function signUp(username: string) {
    const email = `${username.toLowerCase()}@example.com`;
    const created = await anonClient(target).auth.signUp({
      email,
      password: 'profile-password',
      options: { data: { username } },
    });
    if (created.error) throw created.error;
    const signedIn = anonClient(target);
    const { data, error } = await signedIn.auth.signInWithPassword({ email, password: 'profile-password' });
    if (error) throw error;
    return { client: signedIn, id: data.user.id };
  }

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    await signUp(`llse_${suffix}`); // dotted i and l differ: both names may exist
    ({ client, id: userId } = await signUp(mine));
  });
  afterAll(() => target?.close());

  const save = (username: string) => updateProfile(client, userId, mine, ProfileFormSchema.parse({ username }));

  it.each([['Demo_Seller'], ['demo_seIler'], ['dem0_se1ler']])(
    'refuses %s (taken by demo_seller) with the taken message',
    async (username) => {
      expect(await save(username)).toEqual({
        ok: false,
        status: 409,
        message: PROFILE_MESSAGES.usernameTaken,
        field: 'username',
      });
    },
  );

  it('maps the unique-index violation to the same message when only the case of the own name changes', async () => {
    // "Ilse_…" is the viewer's own name case-insensitively, so the availability check is skipped;
    // its capital I reads as l, the look-alike of llse_…: the skeleton index refuses it (23505).
    expect(await save(`Ilse_${suffix}`)).toEqual({
      ok: false,
      status: 409,
      message: PROFILE_MESSAGES.usernameTaken,
      field: 'username',
    });
    const stored = await serviceClient(target).from('users').select('username').eq('id', userId).single();
    expect(stored.data?.username).toBe(mine);
  });

  it.each([['admin'], ['Support'], ['r00t']])(
    'refuses the reserved name %s with the same message',
    async (username) => {
      expect(await save(username)).toEqual({
        ok: false,
        status: 409,
        message: PROFILE_MESSAGES.usernameTaken,
        field: 'username',
      });
    },
  );

  it('saves a free name', async () => {
    expect(await save(`ilse_renamed_${suffix}`)).toEqual({ ok: true });
  });
});

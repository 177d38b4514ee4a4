/**
 * The account type is not the sign-up's to choose: `POST /auth/v1/signup` with
 * `data: { user_type: 'seller' }` (or `admin`), sent anonymously, makes a buyer who has accepted
 * no seller terms. A seller is made only by the app on /become-seller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContractTarget, type ContractTarget } from '../support/contract-target';

let target: ContractTarget;

beforeAll(async () => {
  target = await startContractTarget();
});
afterAll(() => target?.close());

describe('sign-up metadata', () => {
  it.each(['seller', 'admin'])('user_type %s in the metadata gives a buyer', async (userType) => {
    const email = `chooses-${userType}-${Date.now()}@example.com`;
    const signUp = await fetch(`${target.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: target.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        email,
        password: 'correct-horse-battery',
        data: { username: `chooses_${userType}_${Date.now()}`, user_type: userType },
      }),
    });
    expect(signUp.status).toBe(200);
    const profile = await fetch(
      `${target.url}/rest/v1/users?select=user_type,seller_terms_accepted_at&email=eq.${encodeURIComponent(email)}`,
      { headers: { apikey: target.serviceRoleKey, authorization: `Bearer ${target.serviceRoleKey}` } },
    );
    expect(await profile.json()).toEqual([{ user_type: 'buyer', seller_terms_accepted_at: null }]);
  });
});

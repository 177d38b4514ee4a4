/**
 * Auth contract: a password sign-in does not tell by its timing whether the address has an
 * account. A wrong password for an existing account costs one bcrypt check; an unknown address
 * must cost the same (a check against a dummy hash), not answer ten times faster.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/auth-helpers';
import { serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

let target: ContractTarget;

beforeAll(async () => {
  target = await startContractTarget();
});
afterAll(() => target?.close());

async function timedSignIn(email: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${target.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: target.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'not-the-password' }),
  });
  expect(response.status).toBe(400);
  expect(((await response.json()) as { error_code: string }).error_code).toBe('invalid_credentials');
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe.skipIf(isHostedTarget)('password sign-in timing', () => {
  it('takes as long for an unknown address as for a wrong password', async () => {
    const email = uniqueEmail('known');
    const created = await serviceClient(target).auth.admin.createUser({
      email,
      password: 'the-right-password',
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    await timedSignIn(email); // warm-up
    await timedSignIn(uniqueEmail('unknown'));
    const known: number[] = [];
    const unknown: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      known.push(await timedSignIn(email));
      unknown.push(await timedSignIn(uniqueEmail('unknown')));
    }
    // Both do one bcrypt check: the same order of magnitude (before, unknown ones took a tenth).
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });
});

/**
 * The newsletter action against the embedded backend (seeded, in memory): it subscribes through
 * the service role (the Data API roles cannot write the table), answers a repeated
 * address like a new one, and limits each client address to a few attempts a minute.
 */
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../../tests/support/contract-target';
import { clientAddressContext, connectionContext } from '~/context';
import { RATE_LIMIT_MESSAGE } from '~/server/rate-limit.server';
import { SUBSCRIBED_MESSAGE, action } from './newsletter';

describe.skipIf(isHostedTarget)('newsletter action', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
  });
  afterAll(() => target?.close());

  /** One POST of the form (the JavaScript path: no redirectTo), from `address`. */
  async function post(email: string, address: string) {
    const context = new RouterContextProvider();
    context.set(connectionContext, { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey });
    context.set(clientAddressContext, address);
    const url = new URL('http://app.test/resources/newsletter');
    const request = new Request(url, { method: 'POST', body: new URLSearchParams({ email }) });
    const result = (await action({ request, context, params: {}, url, pattern: '/resources/newsletter' } as never)) as {
      data: { ok: boolean; message: string };
      init: { status: number; headers: Headers } | null;
    };
    // The HTTP status last: the result's own `status` is Conform's word for the submission.
    return { ...result.data, status: result.init?.status, retryAfter: result.init?.headers.get('Retry-After') };
  }

  async function stored(email: string): Promise<number> {
    const rows = await target.backend!.db.query('select 1 from public.newsletter_subscribers where email = $1', [
      email,
    ]);
    return rows.rows.length;
  }

  it('subscribes an address once, and answers a repeat with the same message', async () => {
    const email = `reader-${Date.now()}@example.com`;
    expect(await post(`  ${email.toUpperCase()} `, '198.51.100.1')).toMatchObject({
      status: 200,
      ok: true,
      message: SUBSCRIBED_MESSAGE,
    });
    expect(await stored(email)).toBe(1);
    expect(await post(email, '198.51.100.1')).toMatchObject({ status: 200, ok: true, message: SUBSCRIBED_MESSAGE });
    expect(await stored(email)).toBe(1);
  });

  it('refuses the sixth attempt a minute from one address with 429, other addresses unaffected', async () => {
    const address = '198.51.100.2';
    for (let i = 0; i < 5; i++) {
      expect((await post(`burst-${i}-${Date.now()}@example.com`, address)).status).toBe(200);
    }
    const sixth = `burst-6-${Date.now()}@example.com`;
    const refused = await post(sixth, address);
    expect(refused).toMatchObject({ status: 429, ok: false, message: RATE_LIMIT_MESSAGE });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(await stored(sixth)).toBe(0);
    const count = await target.backend!.db.query<{ n: number }>(
      "select count(*)::int as n from public.newsletter_subscribers where email like 'burst-%'",
    );
    expect(count.rows[0]?.n).toBe(5);
    expect((await post(`other-${Date.now()}@example.com`, '198.51.100.3')).status).toBe(200);
  });
});

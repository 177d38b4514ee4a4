/**
 * The order summary (/agent/:agentId/checkout) through its real loader and action against the
 * embedded backend, with real supabase-js clients: signed out it sends the visitor to sign in and
 * back to the summary; signed in it states the figures a purchase would charge (the member's
 * discount, the card); an owner is told the agent is theirs; a confirmation at another price than
 * the one shown is refused and records nothing.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, userClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { connectionContext, supabaseContext, viewerContext } from '~/context';
import { ROLE_PERMISSIONS } from '~/lib/permissions';
import type { Viewer } from '~/lib/viewer';
import { forgetCatalogue } from '~/server/agents.server';
import { action, loader } from './agent-checkout';

const DEMO_BUYER = '00000000-0000-4000-8000-000000000001';
const PREMIUM_MEMBER = '00000000-0000-4000-8000-000000000022'; // priya_shah, seeded on Premium
const agentId = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const CAMPAIGN_PILOT = agentId(1); // bought by demo_buyer
const SEO_SENTINEL = agentId(2); // $99, not bought by demo_buyer
const DRAFT = agentId(73); // demo_seller's draft

type Args = Parameters<typeof loader>[0];

describe.skipIf(isHostedTarget)('order summary', () => {
  let target: ContractTarget;
  let service: SupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
  });
  afterAll(() => target?.close());

  async function signedIn(email: string): Promise<SupabaseClient> {
    const { data, error } = await anonClient(target).auth.signInWithPassword({ email, password: 'demo-password' });
    if (error) throw error;
    return userClient(target, data.session.access_token);
  }

  function viewer(id: string, username: string): Viewer {
    return {
      id,
      email: `${username}@demo.test`,
      username,
      avatarUrl: null,
      role: 'buyer',
      permissions: [...ROLE_PERMISSIONS.buyer],
      createdAt: new Date().toISOString(),
    };
  }

  /** The route's arguments for `agent`'s summary: signed out without `as`. */
  function args(agent: string, as?: { client: SupabaseClient; viewer: Viewer }, body?: Record<string, string>): Args {
    const context = new RouterContextProvider();
    context.set(connectionContext, { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey });
    context.set(supabaseContext, as?.client ?? anonClient(target));
    context.set(viewerContext, as?.viewer ?? null);
    const url = new URL(`http://localhost/agent/${agent}/checkout`);
    const request = body ? new Request(url, { method: 'POST', body: new URLSearchParams(body) }) : new Request(url);
    return { params: { agentId: agent }, request, context, url } as unknown as Args;
  }

  /** What a handler threw (a redirect, a 404), as a status and the redirect's target. */
  async function thrown(run: () => Promise<unknown>): Promise<{ status: number; location: string | null }> {
    try {
      await run();
    } catch (error) {
      if (error instanceof Response) return { status: error.status, location: error.headers.get('location') };
      const status = (error as { init?: { status?: number } }).init?.status;
      if (status) return { status, location: null };
      throw error;
    }
    throw new Error('nothing was thrown');
  }

  /** `run`, and the paths of the backend requests it made (supabase-js calls the global fetch). */
  async function backendPaths<T>(run: () => Promise<T>): Promise<{ result: T; paths: string[] }> {
    const paths: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return realFetch(input, init);
    };
    try {
      return { result: await run(), paths };
    } finally {
      globalThis.fetch = realFetch;
    }
  }

  it('sends a signed-out visitor to sign in, and back to the summary', async () => {
    const answer = await thrown(() => loader(args(SEO_SENTINEL)));
    expect(answer.status).toBe(302);
    const location = new URL(answer.location!, 'http://localhost');
    expect(location.searchParams.get('auth')).toBe('sign-in');
    expect(location.searchParams.get('redirectTo')).toBe(`/agent/${SEO_SENTINEL}/checkout`);
    // Confirming signed out is the same way round, and buys nothing.
    const posted = await thrown(() => action(args(SEO_SENTINEL, undefined, { intent: 'buy' })));
    expect(posted.status).toBe(302);
  });

  it('states the agent, the price, the card and test mode to a signed-in buyer', async () => {
    const card = await service.from('payment_methods').insert({
      user_id: DEMO_BUYER,
      provider: 'test',
      provider_method_id: 'pm_test_4242_checkout',
      brand: 'Visa',
      last4: '4242',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 2,
      is_default: true,
    });
    expect(card.error).toBeNull();
    const buyer = { client: await signedIn('buyer@demo.test'), viewer: viewer(DEMO_BUYER, 'demo_buyer') };

    // The version is the agent page's (its loader reads the changelog): this one reads it not again.
    forgetCatalogue();
    const { result, paths } = await backendPaths(() => loader(args(SEO_SENTINEL, buyer)));
    expect(paths).toContain('/rest/v1/agents_with_stats');
    expect(paths.filter((path) => path.includes('agent_changelog'))).toEqual([]);
    expect(result.init?.status ?? 200).toBe(200);
    expect(result.data).toMatchObject({
      agent: { id: SEO_SENTINEL, name: 'SEO Sentinel' },
      owned: false,
      refusal: null,
      order: {
        listCents: 9900,
        discountCents: 0,
        amountCents: 9900,
        price: '99.00',
        card: 'Visa ending in 4242',
        testMode: true,
      },
    });
  });

  it('shows a member the list price, their discount and what they pay', async () => {
    const member = { client: await signedIn('priya.shah@demo.test'), viewer: viewer(PREMIUM_MEMBER, 'priya_shah') };
    const owned = await service.from('purchases').select('agent_id').eq('buyer_id', PREMIUM_MEMBER);
    const notOwned = [2, 3, 4, 5, 6].map(agentId).find((id) => !owned.data!.some((row) => row.agent_id === id))!;
    const { data: agent } = await service.from('agents').select('price').eq('id', notOwned).single();
    const listCents = Math.round(Number(agent!.price) * 100);

    const { data } = await loader(args(notOwned, member));
    expect(data.order).toMatchObject({
      discountPercent: 10,
      listCents,
      discountCents: Math.round(listCents * 0.1),
      amountCents: listCents - Math.round(listCents * 0.1),
      card: null,
      testMode: true,
    });
  });

  it('tells an owner the agent is in their collection instead of offering it again', async () => {
    const buyer = { client: await signedIn('buyer@demo.test'), viewer: viewer(DEMO_BUYER, 'demo_buyer') };
    const result = await loader(args(CAMPAIGN_PILOT, buyer));
    expect(result.init?.status).toBe(409);
    expect(result.data).toMatchObject({
      owned: true,
      refusal: 'This agent is already in your collection.',
      order: null,
    });
  });

  it('is a 404 for an agent the buyer may not see', async () => {
    const buyer = { client: await signedIn('buyer@demo.test'), viewer: viewer(DEMO_BUYER, 'demo_buyer') };
    expect((await thrown(() => loader(args(DRAFT, buyer)))).status).toBe(404);
    expect(
      (
        await thrown(() =>
          action(args(DRAFT, buyer, { intent: 'buy', idempotencyKey: crypto.randomUUID(), price: '1.00' })),
        )
      ).status,
    ).toBe(404);
  });

  it('answers two confirmations of one summary (a double submit, a retry) alike: one purchase, one charge', async () => {
    const member = { client: await signedIn('priya.shah@demo.test'), viewer: viewer(PREMIUM_MEMBER, 'priya_shah') };
    const owned = await service.from('purchases').select('agent_id').eq('buyer_id', PREMIUM_MEMBER);
    const agent = [7, 8, 9, 10, 11, 12].map(agentId).find((id) => !owned.data!.some((row) => row.agent_id === id))!;
    const { data: summary } = await loader(args(agent, member));
    const form = { intent: 'buy', idempotencyKey: summary.order!.idempotencyKey, price: summary.order!.price };

    const confirm = async () => {
      const answer = await action(args(agent, member, form));
      if (answer instanceof Response) return { status: answer.status, location: answer.headers.get('location') };
      return { status: answer.init?.status, message: answer.data.message };
    };
    // Two at once (the second while the first is charging), then one more later: each is the purchase.
    const answers = [...(await Promise.all([confirm(), confirm()])), await confirm()];
    expect(answers).toEqual(Array(3).fill({ status: 303, location: `/agent/${agent}` }));
    const purchases = await service
      .from('purchases')
      .select('id, status, payment_events(id)')
      .eq('buyer_id', PREMIUM_MEMBER)
      .eq('agent_id', agent);
    expect(purchases.data).toEqual([
      { id: expect.any(String), status: 'completed', payment_events: [expect.anything()] },
    ]);
  });

  it('refuses a confirmation at another price than the one shown, and records nothing', async () => {
    const buyer = { client: await signedIn('buyer@demo.test'), viewer: viewer(DEMO_BUYER, 'demo_buyer') };
    const answer = await action(
      args(SEO_SENTINEL, buyer, { intent: 'buy', idempotencyKey: crypto.randomUUID(), price: '1.00' }),
    );
    expect(answer).not.toBeInstanceOf(Response);
    const refused = answer as Exclude<typeof answer, Response>;
    expect(refused.init?.status).toBe(409);
    expect(refused.data.message).toBe(
      'The price of this agent is now $99.00, not the $1.00 you were shown. Nothing was charged. Please check the new price and buy again if you still want it.',
    );
    const purchases = await service
      .from('purchases')
      .select('id')
      .eq('buyer_id', DEMO_BUYER)
      .eq('agent_id', SEO_SENTINEL);
    expect(purchases.data).toEqual([]);
  });
});

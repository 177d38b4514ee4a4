/**
 * Recent Activity against the embedded backend (seeded, in memory), through the demo buyer's own
 * supabase-js client: the review event names its agent through the many-to-one embed
 * `agents(name)`, whose type now comes from the generated schema (an object, not an array).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsOf } from '~/lib/permissions';
import type { Viewer } from '~/lib/viewer';
import { anonClient, serviceClient, userClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { getRecentActivity } from './dashboard-activity.server';

const DEMO_BUYER = '00000000-0000-4000-8000-000000000001';
const AGENT_40 = 'a0000000-0000-4000-8000-000000000040'; // bought (completed) by demo_buyer, not yet rated

describe.skipIf(isHostedTarget)('recent activity', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
  });
  afterAll(() => target?.close());

  it('lists a new review first, titled with the reviewed agent’s name', async () => {
    const { data, error } = await anonClient(target).auth.signInWithPassword({
      email: 'buyer@demo.test',
      password: 'demo-password',
    });
    if (error) throw error;
    const buyer = userClient(target, data.session.access_token);
    const review = await buyer.from('reviews').insert({ agent_id: AGENT_40, buyer_id: DEMO_BUYER, rating: 4 });
    expect(review.error).toBeNull();
    const agent = await serviceClient(target).from('agents').select('name').eq('id', AGENT_40).single();
    expect(agent.error).toBeNull();

    const viewer: Viewer = {
      id: DEMO_BUYER,
      email: 'buyer@demo.test',
      username: 'demo_buyer',
      avatarUrl: null,
      role: 'buyer',
      permissions: [...permissionsOf('buyer')],
      createdAt: new Date(0).toISOString(),
    };
    const events = await getRecentActivity(buyer, viewer);
    expect(events[0]).toMatchObject({
      kind: 'review',
      title: `Reviewed ${agent.data?.name}`,
      detail: '4 out of 5 stars',
    });
    // The seeded purchases are there too, each with its agent's name and amount.
    expect(events.some((event) => event.kind === 'purchase' && /^Purchased .+/.test(event.title))).toBe(true);
  });
});

/**
 * PostgREST 11+/12 behaviours the embedded Data API must match, through supabase-js on the
 * seeded marketplace schema: a one-to-one embed (agent_stats.agent_id is both its primary key
 * and the foreign key to agents) is an object, not an array; the spread `...agent_stats(cols)`
 * lifts its columns into the parent; an empty `Range: 7-5` is a 416 PGRST103.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

describe.skipIf(isHostedTarget)('PostgREST compatibility', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
  });
  afterAll(() => target?.close());

  it('a one-to-one embed through a primary key that is also a foreign key is an object', async () => {
    const { data, error } = await anonClient(target)
      .from('agents')
      .select('name, agent_stats(avg_rating, review_count)')
      .order('name')
      .limit(5);
    expect(error).toBeNull();
    expect(data!.length).toBe(5);
    for (const row of data!) {
      expect(Array.isArray(row.agent_stats)).toBe(false);
      expect(row.agent_stats).toEqual({ avg_rating: expect.any(Number), review_count: expect.any(Number) });
    }
    // From the other end it is an object too (many-to-one, as before).
    const back = await anonClient(target).from('agent_stats').select('avg_rating, agents(name)').limit(1).single();
    expect(back.error).toBeNull();
    expect(back.data!.agents).toEqual({ name: expect.any(String) });
  });

  it('a one-to-many embed is still an array', async () => {
    const { data, error } = await anonClient(target).from('agents').select('name, reviews(rating)').limit(3);
    expect(error).toBeNull();
    for (const row of data!) expect(Array.isArray(row.reviews)).toBe(true);
  });

  it('the spread ...agent_stats(avg_rating) puts the column on the parent row', async () => {
    const spread = await anonClient(target)
      .from('agents')
      .select('name, ...agent_stats(avg_rating)')
      .order('name')
      .limit(3);
    expect(spread.error).toBeNull();
    const nested = await anonClient(target)
      .from('agents')
      .select('name, agent_stats(avg_rating)')
      .order('name')
      .limit(3);
    expect(spread.data).toEqual(
      nested.data!.map((row) => ({
        name: row.name,
        avg_rating: (row.agent_stats as unknown as { avg_rating: number }).avg_rating,
      })),
    );
    // Spreading a to-many relationship stays an error, not a 5xx.
    const toMany = await anonClient(target).from('agents').select('name, ...reviews(rating)').limit(1);
    expect(toMany.status).toBe(400);
  });

  it('Range: 7-5 (end before start) is 416 PGRST103', async () => {
    const response = await fetch(`${target.url}/rest/v1/agents?select=name`, {
      headers: { apikey: target.anonKey, range: '7-5' },
    });
    expect(response.status).toBe(416);
    expect(await response.json()).toEqual({
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
      hint: null,
    });
    const valid = await fetch(`${target.url}/rest/v1/agents?select=name`, {
      headers: { apikey: target.anonKey, range: '5-7' },
    });
    expect(valid.status).toBe(200);
    expect(((await valid.json()) as unknown[]).length).toBe(3);
  });
});

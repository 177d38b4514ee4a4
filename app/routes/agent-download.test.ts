/**
 * The download route's loader against the embedded backend (seeded, in memory, demo packages
 * written), with real supabase-js clients: row-level security decides who gets the bytes.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { DEMO_VIEWERS, routeContext, signedInClient } from '../../tests/support/route-context';
import type { Database } from '~/types/database';
import { writeDemoPackages } from '../../supabase/demo-packages';
import { loader } from './agent-download';

const agentId = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
type Who = keyof typeof DEMO_VIEWERS;

describe.skipIf(isHostedTarget)('GET /agent/:agentId/download', () => {
  let target: ContractTarget;
  let service: SupabaseClient;
  const clients = new Map<Who, SupabaseClient>();

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    await writeDemoPackages(service as SupabaseClient<Database>);
    for (const who of Object.keys(DEMO_VIEWERS) as Who[]) {
      clients.set(who, await signedInClient(target, DEMO_VIEWERS[who].email));
    }
  });
  afterAll(() => target?.close());

  async function download(who: Who | null, agent: string, search = ''): Promise<Response> {
    const context = who
      ? routeContext(target, DEMO_VIEWERS[who], clients.get(who)!)
      : routeContext(target, null, anonClient(target));
    const url = new URL(`http://localhost/agent/${agent}/download${search}`);
    try {
      return await loader({
        params: { agentId: agent },
        request: new Request(url),
        context,
        url,
      } as unknown as Parameters<typeof loader>[0]);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  async function downloadCount(purchaseId: string): Promise<number> {
    const { count } = await service
      .from('downloads')
      .select('id', { count: 'exact', head: true })
      .eq('purchase_id', purchaseId);
    return count ?? 0;
  }

  it('gives the buyer of a completed purchase the latest package and counts it', async () => {
    const purchase = 'b0000000-0000-4000-8000-000000000001';
    const before = await downloadCount(purchase);
    const response = await download('buyer', agentId(1));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="campaignpilot-1.1.0.json"');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store, no-transform');
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get('Content-Length')).toBe(String(bytes.byteLength));
    expect(JSON.parse(new TextDecoder().decode(bytes))).toMatchObject({ name: 'CampaignPilot' });
    expect(await downloadCount(purchase)).toBe(before + 1);
    const history = await clients
      .get('buyer')!
      .from('user_purchase_history')
      .select('download_count, last_downloaded_at')
      .eq('id', purchase)
      .single();
    expect(history.data?.download_count).toBe(before + 1);
    expect(history.data?.last_downloaded_at).not.toBeNull();
  });

  it('serves an earlier version by ?version= and the newest otherwise', async () => {
    // CampaignPilot (agent 1) has 1.0.0 and a later 1.1.0 in the seed.
    const latest = await download('buyer', agentId(1));
    expect(JSON.parse(await latest.text())).toMatchObject({ version: '1.1.0' });
    const earlier = await download('buyer', agentId(1), '?version=1.0.0');
    expect(earlier.status).toBe(200);
    expect(earlier.headers.get('Content-Disposition')).toBe('attachment; filename="campaignpilot-1.0.0.json"');
    expect(JSON.parse(await earlier.text())).toMatchObject({ version: '1.0.0' });
  });

  it('answers 404 for an unknown or malformed version or agent id', async () => {
    expect((await download('buyer', agentId(1), '?version=9.9.9')).status).toBe(404);
    expect((await download('buyer', agentId(1), '?version=latest')).status).toBe(404);
    expect((await download('buyer', 'not-a-uuid')).status).toBe(404);
  });

  it("lets the agent's seller and admins download without counting a purchase download", async () => {
    const before = await service.from('downloads').select('id', { count: 'exact', head: true });
    expect((await download('seller', agentId(1))).status).toBe(200);
    expect((await download('admin', agentId(2))).status).toBe(200);
    const after = await service.from('downloads').select('id', { count: 'exact', head: true });
    expect(after.count).toBe(before.count);
  });

  it('refuses everyone else with 403, also for an unknown version, and never sends the bytes', async () => {
    for (const [who, agent] of [
      ['seller', agentId(2)], // another seller's agent, not bought
      ['buyer', agentId(21)], // refunded
      ['buyer', agentId(63)], // pending
      ['buyer', agentId(8)], // failed
      ['buyer', agentId(2)], // never bought
    ] as const) {
      const response = await download(who, agent);
      expect(response.status, `${who} ${agent}`).toBe(403);
      expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toContain('Only the buyer of a completed purchase');
    }
    expect((await download('buyer', agentId(2), '?version=9.9.9')).status).toBe(403);
  });

  it('sends a signed-out visitor to sign in and back', async () => {
    const response = await download(null, agentId(1), '?version=1.0.0');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('Location')!, 'http://localhost');
    expect(location.searchParams.get('auth')).toBe('sign-in');
    expect(location.searchParams.get('redirectTo')).toBe(`/agent/${agentId(1)}/download?version=1.0.0`);
  });

  it('answers 503 with a clear message when the file is missing from Storage', async () => {
    const agent = await service.from('agents').select('seller_id').eq('id', agentId(7)).single();
    const inserted = await service.from('agent_versions').insert({
      agent_id: agentId(7),
      version: '9.0.0',
      file_path: `${agent.data!.seller_id}/${agentId(7)}/9.0.0/missing.json`,
      file_name: 'missing-9.0.0.json',
      content_type: 'application/json',
      file_size: 10,
    });
    expect(inserted.error).toBeNull();
    const response = await download('seller', agentId(7), '?version=9.0.0');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('The package file of this agent is missing');
  });
});

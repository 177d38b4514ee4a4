/**
 * The demo package files against the embedded backend (seeded, in memory): written once into the
 * private bucket with their real size, readable by the service role only.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, userClient } from '../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../tests/support/contract-target';
import type { Database } from '../app/types/database';
import { PACKAGES_BUCKET } from '../app/lib/storage-buckets';
import { demoManifest, demoManifestBytes, writeDemoPackages } from './demo-packages';

const AGENT = 'a0000000-0000-4000-8000-000000000001'; // demo_seller's, bought by demo_buyer

describe('demoManifest', () => {
  const agent = {
    name: 'Lead Finder',
    description: 'Finds leads.',
    category: 'Sales',
    features: ['CRM sync', 'Email drafts'],
  };

  it('builds prompts, tools and configuration from the agent', () => {
    const manifest = demoManifest(agent, '1.1.0');
    expect(manifest).toMatchObject({ name: 'Lead Finder', version: '1.1.0', category: 'Sales' });
    expect(manifest.prompts.map((prompt) => prompt.id)).toEqual(['system', 'crm_sync', 'email_drafts']);
    expect(manifest.prompts[0]!.content).toContain('Finds leads.');
    expect(manifest.tools).toEqual([
      { name: 'crm_sync', description: 'CRM sync' },
      { name: 'email_drafts', description: 'Email drafts' },
    ]);
    expect(manifest.configuration).toMatchObject({ temperature: 0.3, max_tokens: 1024 });
  });

  it('is deterministic', () => {
    expect(demoManifestBytes(agent, '1.0.0')).toEqual(demoManifestBytes(agent, '1.0.0'));
  });
});

describe.skipIf(isHostedTarget)('writeDemoPackages', () => {
  let target: ContractTarget;
  let service: SupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
  });
  afterAll(() => target?.close());

  it('writes every demo package once, with its size, and nothing on a second run', async () => {
    const before = await service.from('agent_versions').select('id').eq('file_size', 0);
    expect(before.data?.length).toBeGreaterThan(70);
    const written = await writeDemoPackages(service as SupabaseClient<Database>);
    expect(written).toBe(before.data?.length);
    expect((await service.from('agent_versions').select('id').eq('file_size', 0)).data).toEqual([]);
    expect(await writeDemoPackages(service as SupabaseClient<Database>)).toBe(0);
  });

  it('stores the manifest bytes, readable by the service role only', async () => {
    const version = await service
      .from('agent_versions')
      .select('file_path, file_size, agents(name)')
      .eq('agent_id', AGENT)
      .eq('version', '1.0.0')
      .single();
    expect(version.error).toBeNull();
    const file = await service.storage.from(PACKAGES_BUCKET).download(version.data!.file_path);
    expect(file.error).toBeNull();
    const bytes = new Uint8Array(await file.data!.arrayBuffer());
    expect(bytes.byteLength).toBe(version.data!.file_size);
    const manifest = JSON.parse(new TextDecoder().decode(bytes));
    expect(manifest).toMatchObject({ name: 'CampaignPilot', version: '1.0.0' });

    const { data: session } = await anonClient(target).auth.signInWithPassword({
      email: 'buyer@demo.test',
      password: 'demo-password',
    });
    const buyer = userClient(target, session.session!.access_token);
    for (const client of [anonClient(target), buyer]) {
      const denied = await client.storage.from(PACKAGES_BUCKET).download(version.data!.file_path);
      expect(denied.data).toBeNull();
      expect(denied.error).not.toBeNull();
    }
  });
});

/**
 * The demo package files against the embedded backend (seeded, in memory): written once into the
 * private bucket with their real size, readable by the service role only.
 */
import { readFileSync } from 'node:fs';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, userClient } from '../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../tests/support/contract-target';
import type { Database } from '../app/types/database';
import { PACKAGES_BUCKET } from '../app/lib/storage-buckets';
import { checkAgentPackage } from '../app/lib/agent-package';
import { demoManifest, demoManifestBytes, writeDemoPackages } from './demo-packages';

const MODEL_FAMILIES = ['gpt-4o class', 'claude-3.5 class', 'any chat model with tool calling'];

const AGENT = 'a0000000-0000-4000-8000-000000000001'; // demo_seller's, bought by demo_buyer

describe('demoManifest', () => {
  const agent = {
    name: 'Lead Finder',
    description: 'Finds leads that match your ideal customer. Scores each one by fit.',
    category: 'Sales',
    features: ['CRM sync', 'Salesforce and HubSpot sync', 'Email drafts'],
  };

  it('is a package in the agent package format, built from the agent', () => {
    const manifest = demoManifest(agent, '1.1.0');
    expect(checkAgentPackage(manifest)).toMatchObject({ ok: true });
    expect(manifest).toMatchObject({
      $schema: '/schemas/agent-package/v1.json',
      name: 'Lead Finder',
      version: '1.1.0',
      category: 'Sales',
      description: agent.description,
    });
    // Its own instructions: who it is, what it does, how sales agents work.
    expect(manifest.instructions).toMatch(/^You are Lead Finder, a sales agent that finds leads that match/);
    expect(manifest.instructions).toContain('CRM sync; Salesforce and HubSpot sync; Email drafts');
    expect(manifest.instructions).toContain('no false urgency');
    // A tool per feature, its parameters fitting the category and what the feature names.
    expect(manifest.tools.map((tool) => tool.name)).toEqual([
      'crm_sync',
      'salesforce_and_hubspot_sync',
      'email_drafts',
    ]);
    const sync = manifest.tools[1]!.input_schema;
    expect(sync.required).toEqual(['account']);
    expect(sync.properties?.platform).toMatchObject({ type: 'string', enum: ['salesforce', 'hubspot'] });
    expect(manifest.examples).toHaveLength(1);
    expect(manifest.examples[0]!.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(manifest.examples[0]!.messages[1]!.content).toMatch(
      /^I would start with "CRM sync": I call crm_sync with account "/,
    );
    expect(MODEL_FAMILIES).toContain(manifest.configuration.model_family);
    expect(manifest.configuration).toMatchObject({ temperature: 0.4, max_tokens: 1200 });
    expect(manifest.readme).toMatch(/^# Lead Finder\n/);
    expect(manifest.readme).toContain('| `email_drafts` |');
  });

  it('gives an agent of four features or more two example conversations, and copes with an unknown category', () => {
    const four = { ...agent, features: [...agent.features, 'Meeting notes'] };
    expect(demoManifest(four, '1.0.0').examples.map((example) => example.title)).toEqual(['CRM sync', 'Email drafts']);
    const other = demoManifest({ ...agent, category: 'Legal', features: ['13-week plan'] }, '1.0.0');
    expect(checkAgentPackage(other)).toMatchObject({ ok: true });
    expect(other.tools[0]!.name).toBe('run_13_week_plan');
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

  it('stores for every seeded version a package that the format accepts', async () => {
    const versions = await service.from('agent_versions').select('file_path, version, agents(name)');
    expect(versions.error).toBeNull();
    expect(versions.data!.length).toBeGreaterThan(75);
    for (const row of versions.data!) {
      const file = await service.storage.from(PACKAGES_BUCKET).download(row.file_path);
      expect(file.error, row.file_path).toBeNull();
      const manifest: unknown = JSON.parse(await file.data!.text());
      const checked = checkAgentPackage(manifest);
      expect(checked, row.file_path).toMatchObject({ ok: true });
      expect(manifest).toMatchObject({ name: (row.agents as unknown as { name: string }).name, version: row.version });
    }
  });

  it('writes the demo packages of a database seeded before again, and no seller’s package', async () => {
    const sql = readFileSync(
      new URL('./migrations/20261206000300_demo_packages_in_the_package_format.sql', import.meta.url),
      'utf8',
    );
    const seller = await service
      .from('agent_versions')
      .insert({
        agent_id: AGENT,
        version: '7.0.0',
        file_path: `00000000-0000-4000-8000-000000000002/${AGENT}/7.0.0/own.json`,
        file_name: 'own.json',
        content_type: 'application/json',
        file_size: 10,
      })
      .select('id')
      .single();
    expect(seller.error).toBeNull();
    const all = await service.from('agent_versions').select('id', { count: 'exact', head: true });
    await target.backend!.db.query(sql);
    const reset = await service.from('agent_versions').select('id').eq('file_size', 0);
    expect(reset.data?.length).toBe(all.count! - 1);
    expect(reset.data?.map((row) => row.id)).not.toContain(seller.data!.id);
    expect(await writeDemoPackages(service as SupabaseClient<Database>)).toBe(all.count! - 1);
    expect(await service.from('agent_versions').delete().eq('id', seller.data!.id)).toMatchObject({ error: null });
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
    expect(manifest.tools[0]).toMatchObject({ name: 'cross_channel_budget_pacing' });

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

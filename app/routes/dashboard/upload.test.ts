/**
 * Packages through the real Upload and Edit actions (app/server/listing.server.ts) against the
 * embedded backend (seeded, in memory), as the demo seller: a JSON package or a ZIP's agent.json
 * that breaks the agent package format is refused beside the package field with a 400 and a
 * message that names the field, and nothing is saved; a valid ZIP package becomes the version,
 * and the agent page's "What's inside" reads it (`readPackageInside`), none for an invalid one.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../../tests/support/contract-target';
import { DEMO_VIEWERS, routeAnswer, routeContext, signedInClient } from '../../../tests/support/route-context';
import { validPackage as manifest, zip } from '../../../tests/support/packages';
import { readPackageInside } from '~/server/agent-detail.server';
import { action as editAction } from './agent-edit';
import { action as uploadAction } from './upload';

const CAMPAIGN_PILOT = 'a0000000-0000-4000-8000-000000000001'; // demo_seller's, latest version 1.1.0

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe.skipIf(isHostedTarget)('packages through Upload and Edit', () => {
  let target: ContractTarget;
  let service: SupabaseClient;
  let seller: SupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    seller = await signedInClient(target, DEMO_VIEWERS.seller.email);
  });
  afterAll(() => target?.close());

  function form(
    fields: Record<string, string>,
    file: { name: string; bytes: Uint8Array<ArrayBuffer>; type: string },
  ): FormData {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    data.set('package', new File([file.bytes], file.name, { type: file.type }));
    return data;
  }

  async function upload(draftId: string, file: { name: string; bytes: Uint8Array<ArrayBuffer>; type: string }) {
    const fields = {
      intent: 'draft',
      name: 'Quote Checker',
      description: 'Checks quotes before they go out.',
      category: 'Sales',
      price: '19',
      draft_id: draftId,
    };
    const request = new Request('http://localhost/dashboard/upload', { method: 'POST', body: form(fields, file) });
    return routeAnswer(
      uploadAction({
        request,
        url: new URL(request.url),
        params: {},
        context: routeContext(target, DEMO_VIEWERS.seller, seller),
        pattern: '/dashboard/upload',
      } as unknown as Parameters<typeof uploadAction>[0]),
    );
  }

  async function agentExists(id: string): Promise<boolean> {
    const { data } = await service.from('agents').select('id').eq('id', id);
    return (data ?? []).length > 0;
  }

  const jsonFile = (value: unknown) => ({ name: 'quote-checker.json', bytes: json(value), type: 'application/json' });
  const zipFile = (files: Record<string, Uint8Array>) => ({
    name: 'quote-checker.zip',
    bytes: zip(files),
    type: 'application/zip',
  });

  it('refuses a JSON package that breaks the format, naming the field, and saves nothing', async () => {
    const draftId = crypto.randomUUID();
    const answer = await upload(
      draftId,
      jsonFile(
        manifest((value) => {
          (value.tools as { input_schema: unknown }[])[0]!.input_schema = 'quote_id: string';
          delete value.readme;
        }),
      ),
    );
    expect(answer.status).toBe(400);
    expect(answer.result?.message).toBe('Please check the highlighted fields.');
    expect(answer.result?.error?.package).toEqual([
      'The package does not follow the agent package format: tools[0].input_schema: expected an object; readme: is required.',
    ]);
    expect(await agentExists(draftId)).toBe(false);
  });

  it('refuses a ZIP package without agent.json at its root, or with an invalid one', async () => {
    const nested = await upload(
      crypto.randomUUID(),
      zipFile({ 'quote-checker/agent.json': json(manifest()), 'README.md': new Uint8Array([35]) }),
    );
    expect(nested.status).toBe(400);
    expect(nested.result?.error?.package?.[0]).toBe(
      'The ZIP archive has no agent.json at its root: a ZIP package carries its manifest there.',
    );

    const invalid = await upload(
      crypto.randomUUID(),
      zipFile({ 'agent.json': json(manifest((value) => (value.configuration = { model_family: '' }))) }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.result?.error?.package?.[0]).toBe(
      'The package does not follow the agent package format (agent.json): configuration.model_family: must not be empty; configuration.temperature: is required; configuration.max_tokens: is required.',
    );
  });

  it('takes a ZIP package whose agent.json follows the format as the first version; its page shows what is inside', async () => {
    const draftId = crypto.randomUUID();
    const answer = await upload(draftId, zipFile({ 'agent.json': json(manifest()), 'README.md': json('#') }));
    expect(answer).toMatchObject({ status: 303, location: '/dashboard/agents' });
    const { data } = await service
      .from('agent_versions')
      .select('version, content_type, file_path')
      .eq('agent_id', draftId);
    expect(data).toMatchObject([{ version: '1.0.0', content_type: 'application/zip' }]);

    const connection = { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey };
    expect(await readPackageInside(connection, draftId, '1.0.0')).toMatchObject({
      modelFamily: 'gpt-4o class',
      tools: [{ name: 'check_quote', description: 'Checks one quote.' }],
      example: { title: 'A quote with a wrong discount' },
    });
    // A version whose package came before the format (written here as trusted code would): no section.
    const oldStyle = data![0]!.file_path.replace('/1.0.0/', '/1.1.0/').replace(/[^/]+$/, 'old.json');
    const bytes = json({ name: 'Old style', prompts: [] });
    const stored = await service.storage
      .from('agent-packages')
      .upload(oldStyle, bytes, { contentType: 'application/json' });
    expect(stored.error).toBeNull();
    const version = { agent_id: draftId, version: '1.1.0', file_path: oldStyle, file_name: 'old.json' };
    const inserted = await service
      .from('agent_versions')
      .insert({ ...version, content_type: 'application/json', file_size: bytes.byteLength });
    expect(inserted.error).toBeNull();
    expect(await readPackageInside(connection, draftId, '1.1.0')).toBeNull();
    // No such version, or no service role to read Storage with: no section either.
    expect(await readPackageInside(connection, draftId, '9.9.9')).toBeNull();
    expect(await readPackageInside({ ...connection, serviceRoleKey: undefined }, draftId, '1.0.0')).toBeNull();
  });

  it('refuses a new version of an agent whose package breaks the format', async () => {
    const fields = {
      intent: 'draft',
      name: 'CampaignPilot',
      description: 'Plans campaigns.',
      category: 'Marketing',
      price: '149',
      version: '2.0.0',
      release_notes: 'New tools.',
    };
    const request = new Request(`http://localhost/dashboard/agents/${CAMPAIGN_PILOT}/edit`, {
      method: 'POST',
      body: form(fields, jsonFile(manifest((value) => (value.version = 'v2')))),
    });
    const answer = await routeAnswer(
      editAction({
        request,
        url: new URL(request.url),
        params: { agentId: CAMPAIGN_PILOT },
        context: routeContext(target, DEMO_VIEWERS.seller, seller),
      } as unknown as Parameters<typeof editAction>[0]),
    );
    expect(answer.status).toBe(400);
    expect(answer.result?.error?.package?.[0]).toBe(
      'The package does not follow the agent package format: version: expected a version like 1.0.0 (semantic versioning).',
    );
    const { data } = await service.from('agent_versions').select('version').eq('agent_id', CAMPAIGN_PILOT);
    expect(data?.map((row) => row.version)).not.toContain('2.0.0');
  });
});

/**
 * Package files and Storage keys, attacked by a seller (a fresh account made a seller by the
 * app's own become-seller code) on the seeded embedded backend behind a real HTTP server:
 * - a version's file fields are written only by trusted server code: the seller inserts or
 *   changes no agent_versions row through the Data API, whatever its path, and the database
 *   refuses, even from the service role, a path outside `<seller_id>/<agent_id>/<version>/`;
 * - the download checks a stored path again: a hostile one is answered without asking Storage;
 * - the gateway refuses a path with dot segments or encoded dots or slashes (400) before routing;
 * - publishing through the Data API needs a package;
 * - Storage refuses bytes that are not the image type they declare;
 * - deleting a bucket one may not delete answers the same whether it holds objects or not.
 * Records its count for `npm run test:reliability`'s table (tests/support/security-tally.ts).
 */
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPackageFile, type PackageVersion } from '../../app/server/downloads.server';
import { becomeSeller } from '../../app/server/sellers.server';
import type { AppSupabaseClient } from '../../app/server/supabase.server';
import { anonClient, serviceClient, userClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { recordTally } from '../support/security-tally';

const DEMO_SELLER = '00000000-0000-4000-8000-000000000002';
const DEMO_AGENT = 'a0000000-0000-4000-8000-000000000001'; // demo_seller's
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const MANIFEST = new TextEncoder().encode('{"name":"Probe"}\n');
/** Paths of the attack: the Auth admin API, the outbox, the Data API, through the bucket's URL. */
const ESCAPES = [
  '../../../../auth/v1/admin/users?per_page=50',
  '../../../../auth/v1/admin/outbox?limit=1',
  '../../../../rest/v1/users?select=*',
  '../../../../auth/v1/_local/outbox',
];

let target: ContractTarget;
let service: SupabaseClient;
let seller: { id: string; token: string; client: SupabaseClient };
let agentId: string;
const failures: string[] = [];
let cases = 0;

/** One attack: `refused` says whether it was; a failure is recorded and reported. */
function check(what: string, refused: boolean) {
  cases += 1;
  if (!refused) failures.push(what);
}

beforeAll(async () => {
  target = await startContractTarget({ seed: true });
  service = serviceClient(target);
  const email = `package-paths-${randomUUID().slice(0, 8)}@example.com`;
  const created = await service.auth.admin.createUser({
    email,
    password: 'package-paths-password',
    email_confirm: true,
  });
  if (created.error) throw created.error;
  const id = created.data.user.id;
  const made = await becomeSeller(service as AppSupabaseClient, id, {
    displayName: 'Path Prober',
    pitch: 'Probes paths.',
    responseTimeHours: 4,
  });
  expect(made).toEqual({ ok: true });
  const session = await anonClient(target).auth.signInWithPassword({ email, password: 'package-paths-password' });
  if (session.error) throw session.error;
  const token = session.data.session.access_token;
  seller = { id, token, client: userClient(target, token) };
  // The seller's own draft agent, through the Data API as the dashboard writes it.
  const agent = await seller.client
    .from('agents')
    .insert({ name: 'Path Probe', description: 'd', price: 5, category: 'Sales', seller_id: id, status: 'draft' })
    .select('id')
    .single();
  if (agent.error) throw agent.error;
  agentId = agent.data.id as string;
}, 120_000);

afterAll(async () => {
  if (cases > 0) {
    recordTally({
      check: 'Package paths and Storage keys',
      counts:
        'hostile package paths, climbing URLs, unchecked publishes, mislabelled images or bucket answers let through',
      cases,
      failures,
    });
  }
  await target?.close();
});

function rest(path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('apikey', target.anonKey);
  headers.set('authorization', `Bearer ${init.token ?? seller.token}`);
  headers.set('content-type', 'application/json');
  return fetch(`${target.url}/rest/v1${path}`, { ...init, headers });
}

const version = (filePath: string, number = '1.0.0') => ({
  agent_id: agentId,
  version: number,
  file_path: filePath,
  file_name: 'package.json',
  content_type: 'application/json',
  file_size: MANIFEST.byteLength,
});

describe.skipIf(isHostedTarget)('package paths and Storage keys', () => {
  it("the seller writes no version through the Data API, neither a hostile path nor another seller's", async () => {
    const attempts = [
      ...ESCAPES,
      `${DEMO_SELLER}/${DEMO_AGENT}/1.0.0/campaignpilot.json`,
      `${seller.id}/${agentId}/1.0.0/package.json`,
    ];
    for (const filePath of attempts) {
      const response = await rest('/agent_versions', { method: 'POST', body: JSON.stringify(version(filePath)) });
      check(`seller inserts a version at ${filePath}: ${response.status}`, response.status === 403);
      expect(response.status, filePath).toBe(403);
    }
    const changed = await rest(`/agent_versions?agent_id=eq.${DEMO_AGENT}`, {
      method: 'PATCH',
      body: JSON.stringify({ file_path: ESCAPES[0] }),
    });
    check(`seller changes a file path: ${changed.status}`, changed.status === 403);
    expect(changed.status).toBe(403);
    const { rows } = await target.backend!.db.query(`select 1 from public.agent_versions where agent_id = $1`, [
      agentId,
    ]);
    expect(rows).toEqual([]);
  });

  it('the database refuses, even from trusted server code, a path outside the agent’s own folder', async () => {
    const own = `${seller.id}/${agentId}/1.0.0`;
    const refused = [
      ...ESCAPES,
      `${DEMO_SELLER}/${DEMO_AGENT}/1.0.0/campaignpilot.json`, // another seller's package
      `${DEMO_SELLER}/${agentId}/1.0.0/package.json`, // another seller's folder
      `${seller.id}/${DEMO_AGENT}/1.0.0/package.json`, // another agent's folder
      `${seller.id}/${agentId}/2.0.0/package.json`, // another version's folder
      `/${own}/package.json`,
      `${own}/../../${DEMO_AGENT}/1.0.0/package.json`,
      `${own}/..`,
      `${own}/a..json`,
      `${own}/.hidden.json`,
      `${own}/%2e%2e`,
      `${own}/package.json?download`,
      `${own}/sub/package.json`,
      `${own}/pack age.json`,
      `demo/${agentId}/1.0.0/package.json`,
    ];
    for (const filePath of refused) {
      const inserted = await service.from('agent_versions').insert(version(filePath));
      check(`service inserts a version at ${filePath}: ${inserted.error?.code ?? 'accepted'}`, inserted.error !== null);
      expect(inserted.error?.code, filePath).toBe('23514');
    }
    // The path the app builds is accepted, and then cannot be pointed elsewhere.
    const upload = await service.storage
      .from('agent-packages')
      .upload(`${own}/package.json`, MANIFEST, { contentType: 'application/json' });
    expect(upload.error).toBeNull();
    const accepted = await service
      .from('agent_versions')
      .insert(version(`${own}/package.json`))
      .select('id')
      .single();
    expect(accepted.error).toBeNull();
    const moved = await service
      .from('agent_versions')
      .update({ file_path: `${DEMO_SELLER}/${DEMO_AGENT}/1.0.0/campaignpilot.json` })
      .eq('id', accepted.data!.id);
    check(`service points a version at another seller's package: ${moved.error?.code ?? 'accepted'}`, !!moved.error);
    expect(moved.error?.code).toBe('23514');
  });

  it('the download checks a stored path again and never asks Storage for a hostile one', async () => {
    const touched: string[] = [];
    // The service client, watched: which Storage reads it is asked to make.
    const watched = new Proxy(service, {
      get(client, property, receiver) {
        if (property === 'storage') touched.push('storage');
        return Reflect.get(client, property, receiver) as unknown;
      },
    }) as AppSupabaseClient;
    const row = (filePath: string, agent = agentId): PackageVersion => ({
      id: randomUUID(),
      agent_id: agent,
      version: '1.0.0',
      file_path: filePath,
      file_name: 'package.json',
      content_type: 'application/json',
    });
    const hostile = [
      ...ESCAPES.map((path) => row(path)),
      row(`${DEMO_SELLER}/${DEMO_AGENT}/1.0.0/campaignpilot.json`), // another agent's file
      row(`${DEMO_SELLER}/${agentId}/1.0.0/package.json`), // this agent, another seller's folder
      row(`${seller.id}/${agentId}/1.1.0/package.json`), // another version's folder
      row(`${seller.id}/${agentId}/1.0.0/%2e%2e`),
      row(`${seller.id}/${agentId}/1.0.0/../../../../auth/v1/admin/users`),
    ];
    for (const version of hostile) {
      touched.length = 0;
      const bytes = await readPackageFile(watched, version);
      check(`download reads ${version.file_path}`, bytes === null && touched.length === 0);
      expect(bytes, version.file_path).toBeNull();
      expect(touched, version.file_path).toEqual([]);
    }
    // The seller's own package (stored by the test above) is read, and only it.
    const own = await readPackageFile(watched, row(`${seller.id}/${agentId}/1.0.0/package.json`));
    expect(own && new TextDecoder().decode(own)).toBe('{"name":"Probe"}\n');
    expect(touched).toEqual(['storage']);
  });

  it('the gateway refuses a path that climbs or hides folders, raw or encoded, with a 400', async () => {
    const port = Number(new URL(target.url).port);
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const sent = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path,
            headers: { apikey: target.serviceRoleKey, authorization: `Bearer ${target.serviceRoleKey}` },
          },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        sent.on('error', reject);
        sent.end();
      });
    const object = '/storage/v1/object/agent-packages';
    const paths = [
      `${object}/../../../../auth/v1/admin/users?per_page=50`,
      `${object}/../../../../auth/v1/admin/outbox?limit=1`,
      `${object}/../../../../rest/v1/users`,
      `${object}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/auth/v1/admin/users`,
      `${object}/%2E%2E/%2E%2E/%2E%2E/%2E%2E/auth/v1/admin/users`,
      `${object}/.%2e/.%2e/.%2e/.%2e/auth/v1/admin/users`,
      `${object}/..%2f..%2f..%2f..%2fauth/v1/admin/users`,
      `${object}/..%2F..%2F..%2F..%2Fauth/v1/admin/users`,
      `${object}/..%5c..%5c..%5c..%5cauth/v1/admin/users`,
      `${object}/..\\..\\..\\..\\auth/v1/admin/users`,
      `${object}/%252e%252e/%252e%252e/%252e%252e/%252e%252e/auth/v1/admin/users`,
      `${object}/%25252e%25252e/%25252e%25252e/auth/v1/admin/users`,
      `${object}/%252f/x`,
      `${object}/./x`,
      '/rest/v1/./users',
      '/rest/v1/agents/../users',
      '/auth/v1/../auth/v1/admin/users',
      '/auth/v1/admin/%2e%2e/admin/users',
    ];
    for (const path of paths) {
      const answer = await raw(path);
      const leaked = /"email"|"users"|recovery|"aud"/i.test(answer.body);
      check(`${path}: ${answer.status}`, answer.status === 400 && !leaked);
      expect(answer.status, path).toBe(400);
      expect(leaked, path).toBe(false);
    }
    // The same through the in-process fetch the app's own clients use (the URL as they built it).
    const inProcess = await target.backend!.fetch(`${target.url}${object}/../../../../auth/v1/admin/users`, {
      headers: { apikey: target.serviceRoleKey, authorization: `Bearer ${target.serviceRoleKey}` },
    });
    check(`in-process fetch with dot segments: ${inProcess.status}`, inProcess.status === 400);
    expect(inProcess.status).toBe(400);
    // Ordinary paths still work, dots inside a name included.
    expect((await raw('/rest/v1/categories?select=name&limit=1')).status).toBe(200);
    expect((await raw(`${object}/${seller.id}/${agentId}/1.0.0/package.json`)).status).toBe(200);
  });

  it('publishing through the Data API needs a package', async () => {
    const published = await rest('/agents', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Empty Shell',
        description: 'd',
        price: 5,
        category: 'Sales',
        seller_id: seller.id,
        status: 'published',
      }),
    });
    check(`seller inserts a published agent without a package: ${published.status}`, published.status === 400);
    expect(published.status).toBe(400);
    const draft = await seller.client
      .from('agents')
      .insert({ name: 'Empty Draft', description: 'd', price: 5, category: 'Sales', seller_id: seller.id })
      .select('id')
      .single();
    expect(draft.error).toBeNull();
    const publish = await rest(`/agents?id=eq.${draft.data!.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ status: 'published' }),
    });
    check(`seller publishes a draft without a package: ${publish.status}`, publish.status === 400);
    expect(publish.status).toBe(400);
    expect(await publish.json()).toMatchObject({ code: '23514', hint: 'package_required' });
    // The agent with a version (stored by trusted code above) is published as before.
    const withPackage = await rest(`/agents?id=eq.${agentId}`, {
      method: 'PATCH',
      body: JSON.stringify({ status: 'published' }),
    });
    expect(withPackage.status).toBe(204);
  });

  it('Storage refuses bytes that are not the image type they declare', async () => {
    const avatars = seller.client.storage.from('avatars');
    const fakes: Array<[string, Uint8Array, string]> = [
      ['text as PNG', new TextEncoder().encode('<svg onload=alert(1)>'), 'image/png'],
      ['HTML as JPEG', new TextEncoder().encode('<html><script>x</script>'), 'image/jpeg'],
      ['PNG as GIF', PNG, 'image/gif'],
      ['a PNG signature cut short', PNG.slice(0, 4), 'image/png'],
    ];
    for (const [what, bytes, type] of fakes) {
      const upload = await avatars.upload(`${seller.id}/${randomUUID()}.png`, bytes, { contentType: type });
      check(`avatar upload of ${what}: ${upload.error ? 'refused' : 'stored'}`, upload.error !== null);
      expect(upload.error, what).toMatchObject({ status: 415 });
    }
    // Trusted server code is held to the same rule in the public agent images.
    const asService = await service.storage
      .from('agent-images')
      .upload(`${seller.id}/${agentId}/${randomUUID()}.png`, new TextEncoder().encode('not a png'), {
        contentType: 'image/png',
      });
    check(`agent image of text as PNG: ${asService.error ? 'refused' : 'stored'}`, asService.error !== null);
    expect(asService.error).toMatchObject({ status: 415 });
    const real = await avatars.upload(`${seller.id}/${randomUUID()}.png`, PNG, { contentType: 'image/png' });
    expect(real.error).toBeNull();
  });

  it('deleting a bucket one may not delete says nothing of what it holds', async () => {
    const empty = `pp-empty-${randomUUID().slice(0, 8)}`;
    const full = `pp-full-${randomUUID().slice(0, 8)}`;
    for (const id of [empty, full]) expect((await service.storage.createBucket(id)).error).toBeNull();
    expect((await service.storage.from(full).upload('kept.json', MANIFEST)).error).toBeNull();
    const remove = async (id: string, token: string) => {
      const response = await fetch(`${target.url}/storage/v1/bucket/${id}`, {
        method: 'DELETE',
        headers: { apikey: target.anonKey, authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: (await response.text()).replaceAll(id, '<bucket>') };
    };
    const answers = [await remove(empty, seller.token), await remove(full, seller.token)];
    check(
      `non-owner deletes an empty and a full bucket: ${answers.map((a) => a.status).join(' vs ')}`,
      answers[0]!.status === answers[1]!.status && answers[0]!.body === answers[1]!.body,
    );
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(404);
    // The owner (here the service role) still hears that a bucket is not empty.
    expect((await remove(full, target.serviceRoleKey)).status).toBe(409);
    expect((await remove(empty, target.serviceRoleKey)).status).toBe(200);
  });
});

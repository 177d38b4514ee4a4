/**
 * Storage contract: the storage-api subset @supabase/storage-js uses, driven through the real
 * client. Policies on storage.objects are created here, so these run on the local target.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, userClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { USER_A, USER_B, userToken } from './rest-fixture';

/** The first bytes of a PNG file (an upload declared image/png must start with them). */
const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const POLICIES = `
insert into auth.users (id, aud, role, email) values
  ('${USER_A}', 'authenticated', 'authenticated', 'a@example.com'),
  ('${USER_B}', 'authenticated', 'authenticated', 'b@example.com');
create policy "user-files own read" on storage.objects for select to authenticated
  using (bucket_id = 'user-files' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "user-files own insert" on storage.objects for insert to authenticated
  with check (bucket_id = 'user-files' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "user-files own update" on storage.objects for update to authenticated
  using (bucket_id = 'user-files' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "user-files own delete" on storage.objects for delete to authenticated
  using (bucket_id = 'user-files' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "assets readable" on storage.objects for select using (bucket_id = 'assets');
`;

describe.skipIf(isHostedTarget)('Storage (local fixture)', () => {
  let target: ContractTarget;
  let anon: SupabaseClient;
  let service: SupabaseClient;
  let alice: SupabaseClient;
  let bob: SupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: false });
    await target.backend!.db.exec(POLICIES);
    anon = anonClient(target);
    service = serviceClient(target);
    alice = userClient(target, await userToken(target, USER_A));
    bob = userClient(target, await userToken(target, USER_B));
  });
  afterAll(() => target?.close());

  describe('buckets', () => {
    it('create, get, list, update, delete with the service key', async () => {
      const created = await service.storage.createBucket('user-files', {
        public: false,
        fileSizeLimit: '1MB',
        allowedMimeTypes: ['image/*', 'text/plain'],
      });
      expect(created.error).toBeNull();
      expect(created.data).toEqual({ name: 'user-files' });
      const assets = await service.storage.createBucket('assets', { public: true, fileSizeLimit: 64 });
      expect(assets.error).toBeNull();
      const again = await service.storage.createBucket('user-files');
      expect(again.error).toMatchObject({ status: 409 });
      const { data: bucket } = await service.storage.getBucket('user-files');
      expect(bucket).toMatchObject({
        id: 'user-files',
        name: 'user-files',
        public: false,
        file_size_limit: 1024 * 1024,
      });
      expect(bucket?.allowed_mime_types).toEqual(['image/*', 'text/plain']);
      const { data: list } = await service.storage.listBuckets();
      // agent-images, agent-packages and avatars come from the migrations.
      expect(list?.map((item) => item.id)).toEqual([
        'agent-images',
        'agent-packages',
        'assets',
        'avatars',
        'user-files',
      ]);
      await service.storage.createBucket('temp');
      const updated = await service.storage.updateBucket('temp', { public: true });
      expect(updated.data).toEqual({ message: 'Successfully updated' });
      expect((await service.storage.getBucket('temp')).data?.public).toBe(true);
      expect((await service.storage.deleteBucket('temp')).data).toEqual({ message: 'Successfully deleted' });
      const missing = await service.storage.getBucket('temp');
      expect(missing.error).toMatchObject({ status: 404 });
    });

    it('users cannot create buckets without a policy', async () => {
      const { error } = await alice.storage.createBucket('mine');
      expect(error).toMatchObject({ status: 403 });
      expect((await anon.storage.listBuckets()).data).toEqual([]);
    });
  });

  describe('objects', () => {
    it('uploads as the owner, refuses other folders, downloads under RLS', async () => {
      const blob = new Blob(['hello avatar'], { type: 'text/plain' });
      const upload = await alice.storage.from('user-files').upload(`${USER_A}/hello.txt`, blob);
      expect(upload.error).toBeNull();
      expect(upload.data).toMatchObject({ path: `${USER_A}/hello.txt`, fullPath: `user-files/${USER_A}/hello.txt` });
      expect(upload.data?.id).toMatch(/^[0-9a-f-]{36}$/);
      const foreign = await bob.storage.from('user-files').upload(`${USER_A}/evil.txt`, blob);
      expect(foreign.error).toMatchObject({ status: 403 });
      const duplicate = await alice.storage.from('user-files').upload(`${USER_A}/hello.txt`, blob);
      expect(duplicate.error).toMatchObject({ status: 409 });
      const raw = await alice.storage
        .from('user-files')
        .upload(`${USER_A}/raw.txt`, Buffer.from('raw bytes'), { contentType: 'text/plain', upsert: true });
      expect(raw.error).toBeNull();

      const download = await alice.storage.from('user-files').download(`${USER_A}/hello.txt`);
      expect(download.error).toBeNull();
      expect(await download.data?.text()).toBe('hello avatar');
      expect(download.data?.type).toMatch(/^text\/plain/);
      const hidden = await bob.storage.from('user-files').download(`${USER_A}/hello.txt`);
      expect(hidden.error).not.toBeNull();
      expect((await anon.storage.from('user-files').download(`${USER_A}/hello.txt`)).error).not.toBeNull();
      const info = await alice.storage.from('user-files').info(`${USER_A}/hello.txt`);
      expect(info.data).toMatchObject({ size: 12, name: `${USER_A}/hello.txt` });
      expect((await alice.storage.from('user-files').exists(`${USER_A}/hello.txt`)).data).toBe(true);
    });

    it('upsert replaces, update requires an existing object', async () => {
      const path = `${USER_A}/replace.txt`;
      await alice.storage.from('user-files').upload(path, new Blob(['one'], { type: 'text/plain' }));
      const replaced = await alice.storage
        .from('user-files')
        .upload(path, new Blob(['two'], { type: 'text/plain' }), { upsert: true });
      expect(replaced.error).toBeNull();
      expect(await (await alice.storage.from('user-files').download(path)).data?.text()).toBe('two');
      const updated = await alice.storage.from('user-files').update(path, new Blob(['three'], { type: 'text/plain' }));
      expect(updated.error).toBeNull();
      expect(await (await alice.storage.from('user-files').download(path)).data?.text()).toBe('three');
      const missing = await alice.storage
        .from('user-files')
        .update(`${USER_A}/nope.txt`, new Blob(['x'], { type: 'text/plain' }));
      expect(missing.error).not.toBeNull();
    });

    it('bucket rules: size limit and mime types', async () => {
      const big = new Blob([new Uint8Array(2 * 1024 * 1024)], { type: 'image/png' });
      const tooBig = await alice.storage.from('user-files').upload(`${USER_A}/big.png`, big);
      expect(tooBig.error).toMatchObject({ status: 413 });
      const wrongType = await alice.storage
        .from('user-files')
        .upload(`${USER_A}/x.pdf`, new Blob(['%PDF'], { type: 'application/pdf' }));
      expect(wrongType.error).toMatchObject({ status: 415 });
      const image = await alice.storage
        .from('user-files')
        .upload(`${USER_A}/ok.png`, new Blob([PNG_SIGNATURE], { type: 'image/png' }));
      expect(image.error).toBeNull();
      // Bytes that are not the image type they declare: the same 415.
      const notImage = await alice.storage
        .from('user-files')
        .upload(`${USER_A}/fake.png`, new Blob(['png'], { type: 'image/png' }));
      expect(notImage.error).toMatchObject({ status: 415 });
    });

    it('public URLs need no key; private buckets are not public', async () => {
      const uploaded = await service.storage
        .from('assets')
        .upload('logos/logo.svg', new Blob(['<svg/>'], { type: 'image/svg+xml' }));
      expect(uploaded.error).toBeNull();
      const { data } = anon.storage.from('assets').getPublicUrl('logos/logo.svg');
      const response = await fetch(data.publicUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml');
      expect(await response.text()).toBe('<svg/>');
      const privateUrl = anon.storage.from('user-files').getPublicUrl(`${USER_A}/hello.txt`).data.publicUrl;
      expect((await fetch(privateUrl)).status).toBeGreaterThanOrEqual(400);
      const tooBig = await service.storage.from('assets').upload('big.bin', new Blob([new Uint8Array(100)]));
      expect(tooBig.error).toMatchObject({ status: 413 });
    });

    it('signed URLs: created under RLS, fetched without a key, tampering refused', async () => {
      const signed = await alice.storage.from('user-files').createSignedUrl(`${USER_A}/hello.txt`, 60);
      expect(signed.error).toBeNull();
      const response = await fetch(signed.data!.signedUrl);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('hello avatar');
      const other = signed.data!.signedUrl.replace('hello.txt', 'raw.txt');
      expect((await fetch(other)).status).toBe(400);
      const denied = await bob.storage.from('user-files').createSignedUrl(`${USER_A}/hello.txt`, 60);
      expect(denied.error).not.toBeNull();
      const many = await alice.storage
        .from('user-files')
        .createSignedUrls([`${USER_A}/hello.txt`, `${USER_A}/missing.txt`], 60);
      expect(many.data?.[0]?.signedUrl).toContain('token=');
      expect(many.data?.[1]?.error).toBeTruthy();
      const expiredToken = await target.backend!.keys.sign(
        { url: `user-files/${USER_A}/hello.txt`, purpose: 'download' },
        -5,
      );
      const expired = await fetch(
        `${target.url}/storage/v1/object/sign/user-files/${USER_A}/hello.txt?token=${expiredToken}`,
      );
      expect(expired.status).toBe(400);
      expect(await expired.json()).toMatchObject({ statusCode: '403', message: 'jwt expired' });
    });

    it('signed upload URLs: signed under RLS, uploaded with the token, owner recorded', async () => {
      const path = `${USER_A}/signed.txt`;
      const signed = await alice.storage.from('user-files').createSignedUploadUrl(path);
      expect(signed.error).toBeNull();
      expect(signed.data?.signedUrl).toContain('/object/upload/sign/user-files/');
      const uploaded = await anon.storage
        .from('user-files')
        .uploadToSignedUrl(path, signed.data!.token, new Blob(['via token'], { type: 'text/plain' }));
      expect(uploaded.error).toBeNull();
      expect(uploaded.data?.fullPath).toBe(`user-files/${path}`);
      expect(await (await alice.storage.from('user-files').download(path)).data?.text()).toBe('via token');
      const denied = await bob.storage.from('user-files').createSignedUploadUrl(`${USER_A}/bob.txt`);
      expect(denied.error).toMatchObject({ status: 403 });
      const forged = await anon.storage
        .from('user-files')
        .uploadToSignedUrl(`${USER_A}/other.txt`, signed.data!.token, new Blob(['x'], { type: 'text/plain' }));
      expect(forged.error).not.toBeNull();
      await alice.storage.from('user-files').remove([path]);
    });

    it('a signed download token is not an upload token, and an upload token is not a download token', async () => {
      const path = `${USER_A}/poly.png`;
      const png = () => new Blob([PNG_SIGNATURE, new Uint8Array([1, 2, 3])], { type: 'image/png' });
      const signedUrl = (token: string) => `${target.url}/storage/v1/object/sign/user-files/${path}?token=${token}`;
      const uploadUrl = (token: string) =>
        `${target.url}/storage/v1/object/upload/sign/user-files/${path}?token=${token}`;
      expect((await alice.storage.from('user-files').upload(path, png())).error).toBeNull();
      const read = await alice.storage.from('user-files').createSignedUrl(path, 600);
      expect(read.error).toBeNull();
      const readToken = new URL(read.data!.signedUrl).searchParams.get('token')!;
      expect((await alice.storage.from('user-files').remove([path])).data).toHaveLength(1);

      const recreated = await fetch(uploadUrl(readToken), {
        method: 'PUT',
        headers: { apikey: target.anonKey, 'content-type': 'image/png' },
        body: png(),
      });
      expect(recreated.status).toBe(400);
      expect(await recreated.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized' });
      expect((await alice.storage.from('user-files').download(path)).error).not.toBeNull();

      const write = await alice.storage.from('user-files').createSignedUploadUrl(path);
      expect(write.error).toBeNull();
      const uploaded = await anon.storage.from('user-files').uploadToSignedUrl(path, write.data!.token, png());
      expect(uploaded.error).toBeNull();
      const asDownload = await fetch(signedUrl(write.data!.token));
      expect(asDownload.status).toBe(400);
      expect(await asDownload.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized' });

      const again = await alice.storage.from('user-files').createSignedUrl(path, 600);
      const downloaded = await fetch(again.data!.signedUrl);
      expect(downloaded.status).toBe(200);
      expect(new Uint8Array(await downloaded.arrayBuffer()).subarray(0, 8)).toEqual(PNG_SIGNATURE);
      await alice.storage.from('user-files').remove([path]);
    });

    it('lists files and folders under a prefix', async () => {
      await alice.storage.from('user-files').upload(`${USER_A}/sub/deep.txt`, new Blob(['d'], { type: 'text/plain' }));
      const { data, error } = await alice.storage
        .from('user-files')
        .list(USER_A, { sortBy: { column: 'name', order: 'asc' } });
      expect(error).toBeNull();
      const names = data!.map((entry) => entry.name);
      expect(names).toEqual(['hello.txt', 'ok.png', 'raw.txt', 'replace.txt', 'sub']);
      expect(data!.find((entry) => entry.name === 'sub')?.id).toBeNull();
      const searched = await alice.storage.from('user-files').list(USER_A, { search: 'r' });
      expect(searched.data!.map((entry) => entry.name)).toEqual(['raw.txt', 'replace.txt']);
      expect((await bob.storage.from('user-files').list(USER_A)).data).toEqual([]);
      const paged = await alice.storage.from('user-files').list(USER_A, { limit: 2, offset: 1 });
      expect(paged.data!.map((entry) => entry.name)).toEqual(['ok.png', 'raw.txt']);
    });

    it('move and copy', async () => {
      const moved = await alice.storage.from('user-files').move(`${USER_A}/raw.txt`, `${USER_A}/moved.txt`);
      expect(moved.error).toBeNull();
      expect(await (await alice.storage.from('user-files').download(`${USER_A}/moved.txt`)).data?.text()).toBe(
        'raw bytes',
      );
      expect((await alice.storage.from('user-files').download(`${USER_A}/raw.txt`)).error).not.toBeNull();
      const copied = await alice.storage.from('user-files').copy(`${USER_A}/moved.txt`, `${USER_A}/copy.txt`);
      expect(copied.data).toEqual({ path: `user-files/${USER_A}/copy.txt` });
      expect(await (await alice.storage.from('user-files').download(`${USER_A}/copy.txt`)).data?.text()).toBe(
        'raw bytes',
      );
      const foreign = await bob.storage.from('user-files').move(`${USER_A}/moved.txt`, `${USER_B}/stolen.txt`);
      expect(foreign.error).not.toBeNull();
    });

    it('remove deletes only what the caller may delete', async () => {
      const bobs = await bob.storage.from('user-files').remove([`${USER_A}/copy.txt`]);
      expect(bobs.data).toEqual([]);
      const removed = await alice.storage.from('user-files').remove([`${USER_A}/copy.txt`, `${USER_A}/nothing.txt`]);
      expect(removed.error).toBeNull();
      expect(removed.data?.map((row) => row.name)).toEqual([`${USER_A}/copy.txt`]);
      expect((await alice.storage.from('user-files').download(`${USER_A}/copy.txt`)).error).not.toBeNull();
    });

    it('empties and deletes a bucket; a non-empty bucket cannot be deleted', async () => {
      await service.storage.createBucket('scratch');
      await service.storage.from('scratch').upload('a/b.txt', new Blob(['x']));
      const refused = await service.storage.deleteBucket('scratch');
      expect(refused.error).toMatchObject({ status: 409 });
      expect((await service.storage.emptyBucket('scratch')).data).toEqual({ message: 'Successfully emptied' });
      expect((await service.storage.deleteBucket('scratch')).error).toBeNull();
    });
  });

  describe('safety', () => {
    const raw = (path: string, init: RequestInit = {}, token?: string) =>
      fetch(`${target.url}/storage/v1/${path}`, {
        ...init,
        headers: {
          apikey: target.anonKey,
          authorization: `Bearer ${token ?? target.serviceRoleKey}`,
          ...(init.headers as Record<string, string>),
        },
      });

    it('path traversal, NUL bytes and bad keys are refused with 400', async () => {
      for (const path of [
        'object/assets/..%2F..%2Fetc%2Fpasswd',
        'object/assets/a/..%2Fb',
        'object/assets/%2Fabs',
        'object/assets/a%00b',
        'object/assets/a%5Cb',
      ]) {
        const response = await raw(path, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
        expect(response.status, path).toBe(400);
        expect(await response.json()).toMatchObject({ statusCode: '400', error: 'InvalidKey' });
      }
      const dotdot = await raw('object/assets/..', { method: 'POST', body: 'x' });
      expect(dotdot.status).toBeGreaterThanOrEqual(400);
      expect(dotdot.status).toBeLessThan(500);
    });

    it('tampered JWTs are refused; malformed bodies are 400', async () => {
      const response = await raw('bucket', {}, 'not.a.jwt');
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized' });
      const badJson = await raw('object/list/assets', {
        method: 'POST',
        body: '{',
        headers: { 'content-type': 'application/json' },
      });
      expect(badJson.status).toBe(400);
      const unknownBucket = await raw('object/nope/file.txt', { method: 'POST', body: 'x' });
      expect(unknownBucket.status).toBe(404);
      const route = await raw('nothing/here');
      expect(route.status).toBe(404);
    });
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedBackend, type EmbeddedBackend } from '../index';

describe('storage on disk', () => {
  let dataDir: string;
  let backend: EmbeddedBackend;
  const call = (route: string, init: RequestInit = {}) =>
    backend.fetch(`http://localhost:3000/storage/v1/${route}`, {
      ...init,
      headers: { apikey: backend.serviceRoleKey, ...(init.headers as Record<string, string>) },
    });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'storage-disk-'));
    backend = await createEmbeddedBackend({ dataDir, seed: false });
  });
  afterAll(async () => {
    await backend?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps files under <dataDir>/storage/<bucket>/<path> and removes them', async () => {
    const created = await call('bucket', {
      method: 'POST',
      body: JSON.stringify({ name: 'docs' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(200);
    const upload = await call('object/docs/a/b/readme.txt', {
      method: 'POST',
      body: 'on disk',
      headers: { 'content-type': 'text/plain' },
    });
    expect(upload.status).toBe(200);
    const file = path.join(dataDir, 'storage', 'docs', 'a', 'b', 'readme.txt');
    expect(readFileSync(file, 'utf8')).toBe('on disk');
    const download = await call('object/docs/a/b/readme.txt');
    expect(await download.text()).toBe('on disk');
    const moved = await call('object/move', {
      method: 'POST',
      body: JSON.stringify({ bucketId: 'docs', sourceKey: 'a/b/readme.txt', destinationKey: 'c/readme.txt' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(moved.status).toBe(200);
    expect(existsSync(file)).toBe(false);
    const removed = await call('object/docs', {
      method: 'DELETE',
      body: JSON.stringify({ prefixes: ['c/readme.txt'] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(await removed.json()).toHaveLength(1);
    expect(existsSync(path.join(dataDir, 'storage', 'docs', 'c', 'readme.txt'))).toBe(false);
  });

  it('refuses traversal before touching the file system', async () => {
    const response = await call('object/docs/..%2F..%2Fescape.txt', { method: 'POST', body: 'x' });
    expect(response.status).toBe(400);
    expect(existsSync(path.join(dataDir, 'escape.txt'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'storage', 'escape.txt'))).toBe(false);
  });
});

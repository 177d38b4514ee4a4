/**
 * Where object bytes live: `<storageDir>/<bucket>/<key>` on disk (by default `<dataDir>/storage`),
 * or a Map in memory mode.
 * Keys are checked before they get here; the disk store re-checks that every path resolves
 * inside its root.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { invalidKey } from './errors';

export interface BlobStore {
  put(bucket: string, key: string, bytes: Uint8Array): Promise<void>;
  get(bucket: string, key: string): Promise<Uint8Array | null>;
  remove(bucket: string, key: string): Promise<void>;
  move(bucket: string, from: string, toBucket: string, to: string): Promise<void>;
  copy(bucket: string, from: string, toBucket: string, to: string): Promise<void>;
}

export function createBlobStore(storageDir: string | null): BlobStore {
  return storageDir ? new DiskBlobStore(storageDir) : new MemoryBlobStore();
}

class MemoryBlobStore implements BlobStore {
  private readonly blobs = new Map<string, Uint8Array>();
  private id(bucket: string, key: string) {
    return `${bucket}\0${key}`;
  }
  async put(bucket: string, key: string, bytes: Uint8Array) {
    this.blobs.set(this.id(bucket, key), bytes);
  }
  async get(bucket: string, key: string) {
    return this.blobs.get(this.id(bucket, key)) ?? null;
  }
  async remove(bucket: string, key: string) {
    this.blobs.delete(this.id(bucket, key));
  }
  async move(bucket: string, from: string, toBucket: string, to: string) {
    const bytes = this.blobs.get(this.id(bucket, from));
    if (bytes) this.blobs.set(this.id(toBucket, to), bytes);
    this.blobs.delete(this.id(bucket, from));
  }
  async copy(bucket: string, from: string, toBucket: string, to: string) {
    const bytes = this.blobs.get(this.id(bucket, from));
    if (bytes) this.blobs.set(this.id(toBucket, to), bytes);
  }
}

class DiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private file(bucket: string, key: string): string {
    const resolved = path.resolve(this.root, bucket, key);
    const bucketRoot = path.resolve(this.root, bucket);
    const insideRoot = path.dirname(bucketRoot) === path.resolve(this.root);
    if (!insideRoot || !resolved.startsWith(`${bucketRoot}${path.sep}`)) throw invalidKey(key);
    return resolved;
  }

  async put(bucket: string, key: string, bytes: Uint8Array) {
    const file = this.file(bucket, key);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.upload`;
    await writeFile(temp, bytes);
    await rename(temp, file);
  }

  async get(bucket: string, key: string) {
    try {
      return new Uint8Array(await readFile(this.file(bucket, key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
        return null;
      throw error;
    }
  }

  async remove(bucket: string, key: string) {
    await rm(this.file(bucket, key), { force: true });
  }

  async move(bucket: string, from: string, toBucket: string, to: string) {
    const target = this.file(toBucket, to);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(this.file(bucket, from), target);
  }

  async copy(bucket: string, from: string, toBucket: string, to: string) {
    const bytes = await this.get(bucket, from);
    if (bytes) await this.put(toBucket, to, bytes);
  }
}

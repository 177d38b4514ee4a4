import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTtlCache } from './ttl-cache.server';

describe('ttl cache', () => {
  afterEach(() => vi.useRealTimers());

  it('serves a value until it expires, then loads again', async () => {
    vi.useFakeTimers();
    const cache = createTtlCache<number>({ ttlMs: 1000, maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('a', load)).toBe(1);
    vi.advanceTimersByTime(1001);
    expect(await cache.get('a', load)).toBe(2);
  });

  it('shares one load between concurrent misses and forgets failures', async () => {
    const cache = createTtlCache<string>({ ttlMs: 60_000, maxEntries: 10 });
    let loads = 0;
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve(`v${++loads}`), 5));
    expect(await Promise.all([cache.get('k', slow), cache.get('k', slow)])).toEqual(['v1', 'v1']);
    await expect(cache.get('bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('bad', async () => 'recovered')).toBe('recovered');
  });

  it('keeps at most maxEntries', async () => {
    const cache = createTtlCache<number>({ ttlMs: 60_000, maxEntries: 2 });
    await cache.get('a', async () => 1);
    await cache.get('b', async () => 2);
    await cache.get('c', async () => 3);
    let reloaded = false;
    await cache.get('a', async () => {
      reloaded = true;
      return 1;
    });
    expect(reloaded).toBe(true);
  });

  it('a load pushed out by newer entries still answers the request waiting for it', async () => {
    const cache = createTtlCache<string>({ ttlMs: 60_000, maxEntries: 1 });
    let finish: (value: string) => void = () => {};
    const waiting = cache.get('slow', () => new Promise<string>((resolve) => (finish = resolve)));
    await cache.get('other', async () => 'x');
    finish('slow value');
    expect(await waiting).toBe('slow value');
  });

  it('forgets entries by key or by loaded value, and clears', async () => {
    const cache = createTtlCache<{ owner: string }>({ ttlMs: 60_000, maxEntries: 10 });
    let loads = 0;
    const load = (owner: string) => async () => ({ owner: `${owner}${++loads}` });
    await cache.get('token-a', load('ann'));
    await cache.get('token-b', load('bob'));
    cache.forget((_key, value) => value?.owner.startsWith('ann') ?? false);
    expect(await cache.get('token-a', load('ann'))).toEqual({ owner: 'ann3' });
    expect(await cache.get('token-b', load('bob'))).toEqual({ owner: 'bob2' });
    cache.forget((key) => key === 'token-b');
    expect(await cache.get('token-b', load('bob'))).toEqual({ owner: 'bob4' });
    cache.clear();
    expect(await cache.get('token-a', load('ann'))).toEqual({ owner: 'ann5' });
  });
});

/**
 * A small in-process cache with a time to live, for reads that many requests share and that may
 * be a few seconds stale (the public catalogue, a verified session): `lru-cache` with a fetch
 * method, so concurrent misses for one key share a single load, failed loads are not cached, and
 * the least recently used entry goes first when the cache is full.
 */
import { LRUCache } from 'lru-cache';

export interface TtlCache<T> {
  get(key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets the entries whose key or loaded value matches, e.g. after a write. */
  forget(matches: (key: string, value: T) => boolean): void;
  clear(): void;
}

export function createTtlCache<T>({ ttlMs, maxEntries }: { ttlMs: number; maxEntries: number }): TtlCache<T> {
  // Values boxed: lru-cache stores no undefined or null, which a load may answer.
  const cache = new LRUCache<string, { value: T }, () => Promise<T>>({
    max: maxEntries,
    ttl: ttlMs,
    // Wall-clock time (tests move it with fake timers); a load pushed out by newer entries still
    // answers the requests waiting for it.
    perf: { now: () => Date.now() },
    ignoreFetchAbort: true,
    fetchMethod: async (_key, _stale, { context }) => ({ value: await context() }),
  });
  return {
    async get(key, load) {
      const entry = await cache.fetch(key, { context: load });
      return entry!.value;
    },
    forget(matches) {
      for (const [key, entry] of cache.entries()) if (matches(key, entry.value)) cache.delete(key);
    },
    clear() {
      cache.clear();
    },
  };
}

/**
 * A small in-process cache with a time to live, for aggregate reads that many requests share
 * and that may be a few seconds stale (e.g. category counts of the public catalogue). Concurrent
 * misses for one key share a single load; failed loads are not cached.
 */
export interface TtlCache<T> {
  get(key: string, load: () => Promise<T>): Promise<T>;
}

export function createTtlCache<T>({ ttlMs, maxEntries }: { ttlMs: number; maxEntries: number }): TtlCache<T> {
  const entries = new Map<string, { expiresAt: number; value: Promise<T> }>();
  return {
    get(key, load) {
      const now = Date.now();
      const cached = entries.get(key);
      if (cached && cached.expiresAt > now) return cached.value;
      if (entries.size >= maxEntries) {
        for (const [oldKey, entry] of entries) if (entry.expiresAt <= now) entries.delete(oldKey);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      }
      const value = load();
      entries.set(key, { expiresAt: now + ttlMs, value });
      value.catch(() => entries.delete(key));
      return value;
    },
  };
}

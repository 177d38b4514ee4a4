/**
 * A small in-process cache with a time to live, for reads that many requests share and that may
 * be a few seconds stale (the public catalogue, a verified session). Concurrent misses for one
 * key share a single load; failed loads are not cached.
 */
export interface TtlCache<T> {
  get(key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets the entries whose key (or settled value) matches, e.g. after a write. */
  forget(matches: (key: string, value: T | undefined) => boolean): void;
  clear(): void;
}

interface Entry<T> {
  expiresAt: number;
  promise: Promise<T>;
  value?: T;
}

export function createTtlCache<T>({ ttlMs, maxEntries }: { ttlMs: number; maxEntries: number }): TtlCache<T> {
  const entries = new Map<string, Entry<T>>();
  return {
    get(key, load) {
      const now = Date.now();
      const cached = entries.get(key);
      if (cached && cached.expiresAt > now) return cached.promise;
      if (entries.size >= maxEntries) {
        for (const [oldKey, entry] of entries) if (entry.expiresAt <= now) entries.delete(oldKey);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      }
      const entry: Entry<T> = { expiresAt: now + ttlMs, promise: load() };
      entries.set(key, entry);
      entry.promise.then(
        (value) => {
          entry.value = value;
        },
        () => {
          if (entries.get(key) === entry) entries.delete(key);
        },
      );
      return entry.promise;
    },
    forget(matches) {
      for (const [key, entry] of entries) if (matches(key, entry.value)) entries.delete(key);
    },
    clear() {
      entries.clear();
    },
  };
}

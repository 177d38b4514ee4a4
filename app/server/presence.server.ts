/**
 * Seller presence (the online dot of Purchase History): every signed-in request marks its user
 * active through `public.touch_presence()`, at most once per PRESENCE_INTERVAL_MS per user in
 * this process, in the background. `public_profiles.is_online` counts someone as online for 15
 * minutes after their last mark, so a few minutes between marks keep an active user online.
 */
import type { AppSupabaseClient } from '~/server/supabase.server';
import { createTtlCache } from '~/server/ttl-cache.server';

export const PRESENCE_INTERVAL_MS = 5 * 60_000;

export type PresenceToucher = (userId: string, touch: () => Promise<void>) => void;

/**
 * Runs `touch` for a user unless one ran (or is running) for them within `intervalMs`. A failed
 * touch is logged and still counts, so a struggling backend is not asked again on every request.
 */
export function createPresenceThrottle(intervalMs = PRESENCE_INTERVAL_MS, maxUsers = 10_000): PresenceToucher {
  const recent = createTtlCache<void>({ ttlMs: intervalMs, maxEntries: maxUsers });
  return (userId, touch) => {
    void recent.get(userId, () =>
      touch().catch((error: unknown) => {
        console.error('Presence update failed:', error instanceof Error ? error.message : error);
      }),
    );
  };
}

const throttle = createPresenceThrottle();

/** Marks the signed-in user of `client` active, in the background (never delays the request). */
export function touchPresence(client: AppSupabaseClient, userId: string): void {
  throttle(userId, async () => {
    const { error } = await client.rpc('touch_presence');
    if (error) throw new Error(error.message);
  });
}

/**
 * The platform settings (ADR 065): the one place the code reads the platform fee, the price
 * ceiling, the upload limits, whether sign-up is open, and maintenance mode. One row in `public.platform_settings`, readable by anyone and
 * shared between requests for a few seconds; a change through `savePlatformSettings` is seen at
 * once in this process (and by other processes within the cache's lifetime).
 */
import type { RouterContextProvider } from 'react-router';
import { connectionContext } from '~/context';
import { publicSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import type { PlatformSettings, PlatformSettingsInput, SettingsChange } from '~/schemas/platform-settings';
import { unwrap } from '~/server/http-errors.server';
import { usernames } from '~/server/paged-lists.server';
import { createTtlCache } from '~/server/ttl-cache.server';

const SETTINGS_TTL_MS = 5_000;
const cache = createTtlCache<PlatformSettings>({ ttlMs: SETTINGS_TTL_MS, maxEntries: 1 });

/** The settings in force, read through any client (the row is public). */
export function getPlatformSettings(supabase: AppSupabaseClient): Promise<PlatformSettings> {
  return cache.get('settings', async () => {
    const row = unwrap(
      await supabase
        .from('platform_settings')
        .select(
          'platform_fee_percent, max_agent_price, max_image_mb, max_package_mb, signups_open, maintenance_mode, maintenance_message',
        )
        .single(),
      'platform settings',
    );
    return {
      platformFeePercent: Number(row.platform_fee_percent),
      maxAgentPrice: Number(row.max_agent_price),
      maxImageMb: row.max_image_mb,
      maxPackageMb: row.max_package_mb,
      signupsOpen: row.signups_open,
      maintenanceMode: row.maintenance_mode,
      maintenanceMessage: row.maintenance_message,
    };
  });
}

/** After the database refused something the cached settings allowed: the next read is fresh. */
export function forgetPlatformSettings(): void {
  cache.clear();
}

/** The settings in force, for a loader, an action or a middleware (through the anonymous client). */
export function platformSettings(context: Readonly<RouterContextProvider>): Promise<PlatformSettings> {
  return getPlatformSettings(publicSupabase(context.get(connectionContext)));
}

/**
 * Saves the settings as the signed-in admin (row-level security lets no one else; the database
 * stamps who and when and writes the change to the audit log).
 */
export async function savePlatformSettings(supabase: AppSupabaseClient, input: PlatformSettingsInput): Promise<void> {
  const result = await supabase
    .from('platform_settings')
    .update({
      platform_fee_percent: input.platformFeePercent,
      max_agent_price: input.maxAgentPrice,
      max_image_mb: input.maxImageMb,
      max_package_mb: input.maxPackageMb,
      signups_open: input.signupsOpen,
      maintenance_mode: input.maintenanceMode,
      maintenance_message: input.maintenanceMessage || null,
    })
    .not('id', 'is', null)
    .select('id');
  forgetPlatformSettings();
  if (unwrap(result, 'platform settings').length !== 1) throw new Error('The platform settings were not saved');
}

const SETTING_LABEL: Record<string, (value: unknown) => string> = {
  platform_fee_percent: (value) => `${Number(value)}%`,
  max_agent_price: (value) => `$${Number(value)}`,
  max_image_mb: (value) => `${Number(value)} MB`,
  max_package_mb: (value) => `${Number(value)} MB`,
  signups_open: (value) => (value ? 'open' : 'closed'),
  maintenance_mode: (value) => (value ? 'on' : 'off'),
  maintenance_message: (value) => (typeof value === 'string' && value ? `“${value}”` : 'none'),
};

const SETTING_NAME: Record<string, string> = {
  platform_fee_percent: 'Platform fee',
  max_agent_price: 'Price ceiling',
  max_image_mb: 'Largest image',
  max_package_mb: 'Largest package',
  signups_open: 'Sign-up',
  maintenance_mode: 'Maintenance mode',
  maintenance_message: 'Maintenance message',
};

const settingOrder = (setting: string) => {
  const index = Object.keys(SETTING_NAME).indexOf(setting);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
};

/** The latest changes of the settings from the audit log (admins only, by row-level security). */
export async function listSettingsChanges(client: AppSupabaseClient, limit = 10): Promise<SettingsChange[]> {
  const rows = unwrap(
    await client
      .from('audit_log')
      .select('id, actor_id, details, created_at')
      .eq('action', 'settings.changed')
      .order('created_at', { ascending: false })
      .order('id')
      .limit(limit),
    'settings changes',
  );
  const names = await usernames(
    client,
    rows.map((row) => row.actor_id),
  );
  return rows.map((row) => ({
    id: row.id,
    actor: (row.actor_id && names.get(row.actor_id)) ?? 'a deleted account',
    createdAt: row.created_at,
    // In the form's order (the database keeps a JSON object's keys in its own order).
    changes: Object.entries((row.details ?? {}) as Record<string, { from?: unknown; to?: unknown }>)
      .toSorted(([a], [b]) => settingOrder(a) - settingOrder(b))
      .map(([setting, { from, to }]) => {
        const label = SETTING_LABEL[setting] ?? ((value: unknown) => String(value));
        return `${SETTING_NAME[setting] ?? setting}: ${label(from)} → ${label(to)}`;
      }),
  }));
}

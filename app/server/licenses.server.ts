/**
 * Licence keys (ADR 073). The database keeps a licence's public code; the key's second half is
 * computed here, an HMAC of the licence's id under LICENSE_KEY_SECRET (or, without it, the random
 * secret the database keeps for the demo). So a key can be shown to its buyer at any time, and
 * checked, without ever being stored.
 *
 * - `buyerLicenses`: the keys of the buyer's purchases (My Collection, invoices);
 * - `verifyLicense`: the public verify endpoint's answer (`POST /api/v1/licenses/verify`);
 * - `resetLicenseUses`, `setLicenseDisabled`: the buyer's reset and the seller's switch, through
 *   the caller's own client (the database checks who may).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import type { SupabaseConnection } from '~/context';
import { formatDate } from '~/lib/dashboard-format';
import { formatLicenseKey, normalizeLicenseKey, type LicenseView } from '~/lib/licenses';
import type { VerifiedLicenseSchema } from '~/schemas/api';
import { env } from '~/server/env.server';
import { unwrap } from '~/server/http-errors.server';
import { backendKey, createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';

const databaseSecrets = new Map<string, Promise<string>>();

/** The secret keys are made with: LICENSE_KEY_SECRET, else the database's own (read once per backend). */
function licenseSecret(connection: SupabaseConnection): Promise<string> {
  if (env.LICENSE_KEY_SECRET) return Promise.resolve(env.LICENSE_KEY_SECRET);
  const key = backendKey(connection);
  let secret = databaseSecrets.get(key);
  if (!secret) {
    secret = (async () => {
      const row = unwrap(
        await createServiceSupabase(connection).from('license_key_secret').select('secret').single(),
        'licence key secret',
      );
      return row.secret;
    })();
    secret.catch(() => databaseSecrets.delete(key));
    databaseSecrets.set(key, secret);
  }
  return secret;
}

/** The key's second half for a licence: 16 hex characters of HMAC-SHA256(secret, "license:<id>"). */
function checkOf(secret: string, licenseId: string): string {
  return createHmac('sha256', secret).update(`license:${licenseId}`).digest('hex').slice(0, 16).toUpperCase();
}

const RESET_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * The licences of these purchases that the client may read (the buyer's own), by purchase id, as
 * the buyer sees them.
 */
export async function buyerLicenses(
  client: AppSupabaseClient,
  connection: SupabaseConnection,
  purchaseIds: string[],
  timeZone: string,
  now = Date.now(),
): Promise<Map<string, LicenseView>> {
  if (purchaseIds.length === 0) return new Map();
  const [rows, secret] = await Promise.all([
    client
      .from('licenses')
      .select('id, purchase_id, code, uses, uses_reset_at, disabled_reason, agents(activation_limit)')
      .in('purchase_id', purchaseIds)
      .then((result) => unwrap(result, 'licences')),
    licenseSecret(connection),
  ]);
  return new Map(
    rows.map((row) => {
      const resetAgain = row.uses_reset_at ? Date.parse(row.uses_reset_at) + RESET_EVERY_MS : 0;
      return [
        row.purchase_id,
        {
          id: row.id,
          key: formatLicenseKey(row.code, checkOf(secret, row.id)),
          uses: row.uses,
          maxUses: row.agents?.activation_limit ?? null,
          disabledReason: row.disabled_reason,
          resetAgainOn: resetAgain > now ? formatDate(new Date(resetAgain).toISOString(), timeZone) : null,
        },
      ];
    }),
  );
}

/** What the verify endpoint answers about a licence it found (its schema is the API's). */
export type VerifiedLicense = z.infer<typeof VerifiedLicenseSchema>;

export type VerifyOutcome =
  | { kind: 'not-found' }
  | { kind: 'found'; license: VerifiedLicense; valid: boolean }
  | { kind: 'limit-reached'; license: VerifiedLicense };

/**
 * Checks a key for an agent (service role): an unknown code, a wrong check or another agent's
 * licence are all `not-found`, alike. With `incrementUses`, a valid licence counts one activation
 * unless the agent's limit is reached.
 */
export async function verifyLicense(
  connection: SupabaseConnection,
  request: { agentId: string; key: string; incrementUses: boolean },
): Promise<VerifyOutcome> {
  const parts = normalizeLicenseKey(request.key);
  if (!parts) return { kind: 'not-found' };
  const service = createServiceSupabase(connection);
  const [rows, secret] = await Promise.all([
    service
      .rpc('license_by_code', { license_code: parts.code }, { get: true })
      .then((result) => unwrap(result, 'licence')),
    licenseSecret(connection),
  ]);
  const row = rows[0];
  const expected = Buffer.from(checkOf(secret, row?.id ?? '00000000-0000-0000-0000-000000000000'));
  const matches = timingSafeEqual(expected, Buffer.from(parts.check)) && row !== undefined;
  if (!row || !matches || row.agent_id !== request.agentId.toLowerCase()) return { kind: 'not-found' };

  const status = row.purchase_status !== 'completed' ? 'refunded' : row.disabled_reason ? 'disabled' : 'active';
  const license: VerifiedLicense = {
    agent: { id: row.agent_id, name: row.agent_name },
    versions: { first: row.first_version, latest: row.latest_version },
    status,
    disabled_reason: row.disabled_reason,
    uses: row.uses,
    max_uses: row.max_uses,
    purchased_at: row.purchased_at,
  };
  if (status !== 'active' || !request.incrementUses) return { kind: 'found', license, valid: status === 'active' };
  const used = unwrap(await service.rpc('use_license', { license: row.id }), 'licence activation');
  // Refused: the count reached the limit (maybe just now, by a parallel activation).
  if (!used[0])
    return { kind: 'limit-reached', license: { ...license, uses: Math.max(license.uses, license.max_uses ?? 0) } };
  return { kind: 'found', license: { ...license, uses: used[0].uses }, valid: true };
}

/** The buyer's reset: 'done', 'too-soon' (once a day) or 'not-found'. */
export async function resetLicenseUses(client: AppSupabaseClient, licenseId: string) {
  const { error } = await client.rpc('reset_license_uses', { license: licenseId });
  if (!error) return 'done' as const;
  if (error.code === 'PT429') return 'too-soon' as const;
  if (error.code === 'PT404' || error.code === '22P02') return 'not-found' as const;
  return unwrap({ data: null, error }, 'licence reset');
}

/** The seller's (or an admin's) switch: a reason disables, null enables. 'done' or 'not-found'. */
export async function setLicenseDisabled(client: AppSupabaseClient, licenseId: string, reason: string | null) {
  const { error } = await client.rpc('set_license_disabled', { license: licenseId, reason: reason as string });
  if (!error) return 'done' as const;
  if (error.code === 'PT404' || error.code === '22P02') return 'not-found' as const;
  return unwrap({ data: null, error }, 'licence switch');
}

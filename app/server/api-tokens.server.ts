/**
 * The Developers page's API tokens (ADR 074), through the seller's own client: row-level security
 * gives each person their own tokens; the database caps them at 20 and never lets the hash be read.
 */
import { formatDate } from '~/lib/dashboard-format';
import type { ApiScope } from '~/schemas/api';
import { forgetApiToken, newApiToken } from '~/server/api/auth.server';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export interface ApiTokenRow {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  createdOn: string;
  lastUsedOn: string | null;
  expiresOn: string | null;
  expired: boolean;
}

export async function listApiTokens(
  client: AppSupabaseClient,
  userId: string,
  timeZone: string,
  now = Date.now(),
): Promise<ApiTokenRow[]> {
  const rows = unwrap(
    await client
      .from('api_tokens')
      .select('id, name, token_prefix, scopes, created_at, last_used_at, expires_at')
      .eq('user_id', userId)
      .order('created_at', { ascending: false }),
    'API tokens',
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.token_prefix,
    scopes: row.scopes as ApiScope[],
    createdOn: formatDate(row.created_at, timeZone),
    lastUsedOn: row.last_used_at ? formatDate(row.last_used_at, timeZone) : null,
    expiresOn: row.expires_at ? formatDate(row.expires_at, timeZone) : null,
    expired: row.expires_at !== null && Date.parse(row.expires_at) <= now,
  }));
}

/** A new token: the token itself (shown once), or 'too-many' at the database's cap. */
export async function createApiToken(
  client: AppSupabaseClient,
  userId: string,
  { name, scopes, expiresInDays }: { name: string; scopes: ApiScope[]; expiresInDays: number | null },
): Promise<{ token: string } | 'too-many'> {
  const { token, hash, prefix } = newApiToken();
  const expiresAt = expiresInDays === null ? null : new Date(Date.now() + expiresInDays * 86_400_000).toISOString();
  const { error } = await client.from('api_tokens').insert({
    user_id: userId,
    name,
    scopes,
    token_hash: hash,
    token_prefix: prefix,
    expires_at: expiresAt,
  });
  if (error?.code === 'PT409') return 'too-many';
  unwrap({ data: null, error }, 'API token insert');
  return { token };
}

/** Revokes (deletes) one of the person's tokens; true when there was one. */
export async function revokeApiToken(client: AppSupabaseClient, tokenId: string): Promise<boolean> {
  // Row-level security: only the person's own token is found, and deleted.
  const found = unwrap(await client.from('api_tokens').select('id').eq('id', tokenId), 'API token');
  if (found.length === 0) return false;
  unwrap(await client.from('api_tokens').delete().eq('id', tokenId), 'API token revoke');
  forgetApiToken(tokenId);
  return true;
}

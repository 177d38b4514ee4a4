/**
 * Package downloads (`GET /agent/:agentId/download`, app/routes/agent-download.ts). Who may
 * download is decided by the database: `agent_versions` is readable, under the viewer's own
 * row-level security, only by the buyer of a completed purchase, the agent's seller and admins.
 * So reading the version row with the viewer's client IS the check; only then is the file read
 * from the private bucket with the service role, and a buyer's download counted.
 *
 * The stored path is checked again before Storage is read: it must be the package path of this
 * agent, its seller and this version (app/lib/package-path.ts, the rule the database enforces on
 * every write), and it reaches Storage only as a checked, encoded key (readStorageObject).
 */
import { z } from 'zod';
import { parsePackagePath } from '~/lib/package-path';
import { unwrap } from '~/server/http-errors.server';
import { readStorageObject, storageKey } from '~/server/storage.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { PACKAGES_BUCKET } from '~/lib/storage-buckets';
import { VERSION_PATTERN } from '~/lib/versions';

/** `?version=` as agent_versions stores it (its check constraint). */
export const VersionParamSchema = z.string().regex(VERSION_PATTERN).optional();

const VERSION_COLUMNS = 'id, agent_id, version, file_path, file_name, content_type, file_size, created_at';

export type PackageVersion = {
  id: string;
  agent_id: string;
  version: string;
  file_path: string;
  file_name: string;
  content_type: string;
};

export type DownloadAccess =
  | { ok: true; version: PackageVersion; purchaseId: string | null }
  | { ok: false; reason: 'forbidden' | 'unknown-version' };

/**
 * The version the viewer may download (the latest by date, or `version`), and the viewer's
 * completed purchase of the agent if they are its buyer (null for its seller or an admin).
 */
export async function authorizeDownload(
  viewerClient: AppSupabaseClient,
  { agentId, buyerId, version }: { agentId: string; buyerId: string; version: string | undefined },
): Promise<DownloadAccess> {
  const versions = viewerClient.from('agent_versions').select(VERSION_COLUMNS).eq('agent_id', agentId);
  const [found, purchase] = await Promise.all([
    version
      ? versions.eq('version', version).limit(1)
      : versions.order('created_at', { ascending: false }).order('version', { ascending: false }).limit(1),
    viewerClient
      .from('purchases')
      .select('id')
      .eq('agent_id', agentId)
      .eq('buyer_id', buyerId)
      .eq('status', 'completed')
      .limit(1),
  ]);
  const row = unwrap(found, 'package version')[0];
  const purchaseId = unwrap(purchase, 'purchase of the download')[0]?.id ?? null;
  if (row) return { ok: true, version: row, purchaseId };
  if (!version) return { ok: false, reason: 'forbidden' };
  // No such version: a 404 for those who may see the versions, the same 403 for everyone else.
  const any = unwrap(
    await viewerClient.from('agent_versions').select('id').eq('agent_id', agentId).limit(1),
    'package versions',
  );
  return { ok: false, reason: any.length > 0 ? 'unknown-version' : 'forbidden' };
}

/**
 * The file's bytes from the private bucket (service role), or null when it cannot be read. A
 * stored path that is not this version's package path (another agent's, another seller's, or any
 * other text) is refused before Storage is asked anything.
 */
export async function readPackageFile(
  service: AppSupabaseClient,
  version: PackageVersion,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const parts = parsePackagePath(version.file_path);
  const key = storageKey(version.file_path);
  if (!parts || !key || parts.agentId !== version.agent_id || parts.version !== version.version) {
    return refusedPath(version);
  }
  const agent = unwrap(
    await service.from('agents').select('seller_id').eq('id', version.agent_id).maybeSingle(),
    'package owner',
  );
  // A deleted seller's agents keep their sales with no seller (seller_id null): their files stay
  // in the folder the database checked when the version was written.
  if (!agent || (agent.seller_id !== null && agent.seller_id !== parts.sellerId)) return refusedPath(version);
  return readStorageObject(service, PACKAGES_BUCKET, key);
}

function refusedPath(version: PackageVersion): null {
  console.error(`Package version ${version.id} has a file path outside its agent's folder; not read.`);
  return null;
}

/** Counts a buyer's download (service role: nobody writes downloads through the API). */
export async function recordDownload(
  service: AppSupabaseClient,
  row: { purchaseId: string; agentId: string; buyerId: string; versionId: string },
): Promise<void> {
  const { error } = await service.from('downloads').insert({
    purchase_id: row.purchaseId,
    agent_id: row.agentId,
    buyer_id: row.buyerId,
    version_id: row.versionId,
  });
  // The buyer still gets the file; the missing count is in the log.
  if (error) console.error('Download could not be recorded:', error.code ?? '', error.message);
}

/**
 * A package's manifest, read and checked against the agent package format (app/lib/agent-package.ts):
 * a JSON package is the manifest; a ZIP package must carry it as agent.json at its root (read by
 * app/server/zip.server.ts). The upload refuses a package whose manifest is missing or invalid,
 * with a message that names the field; the agent page shows what a valid one holds.
 */
import { checkAgentPackage, packageProblemsMessage, type AgentPackage } from '~/lib/agent-package';
import { AGENT_MANIFEST_FILE, MAX_MANIFEST_BYTES } from '~/lib/agent-package-format';
import type { PackageKind } from '~/lib/file-signatures';
import { readZipEntry, type ZipEntry } from '~/server/zip.server';

export type ManifestRead = { ok: true; manifest: AgentPackage } | { ok: false; message: string };

const ZIP_MESSAGES: Record<Exclude<ZipEntry, { ok: true }>['reason'], string> = {
  missing: `The ZIP archive has no ${AGENT_MANIFEST_FILE} at its root: a ZIP package carries its manifest there.`,
  duplicate: `The ZIP archive holds ${AGENT_MANIFEST_FILE} twice: a ZIP package carries one manifest.`,
  unreadable: 'The ZIP archive could not be read: it is damaged or not a ZIP archive.',
  unsupported: `${AGENT_MANIFEST_FILE} in the ZIP archive is encrypted or compressed in a way we cannot read: save it uncompressed or with Deflate.`,
  'too-large': `${AGENT_MANIFEST_FILE} can be at most 1 MB.`,
};

function parseJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
  } catch {
    return { ok: false };
  }
}

/** The package's manifest, checked; or the message that says what is wrong with it. */
export function readAgentPackage(bytes: Uint8Array, kind: PackageKind): ManifestRead {
  let manifestBytes = bytes;
  if (kind === 'zip') {
    const entry = readZipEntry(bytes, AGENT_MANIFEST_FILE, MAX_MANIFEST_BYTES);
    if (!entry.ok) return { ok: false, message: ZIP_MESSAGES[entry.reason] };
    manifestBytes = entry.bytes;
  }
  const file = kind === 'zip' ? AGENT_MANIFEST_FILE : undefined;
  const parsed = parseJson(manifestBytes);
  if (!parsed.ok) return { ok: false, message: `${file ?? 'The package'} is not valid JSON (UTF-8).` };
  const checked = checkAgentPackage(parsed.value);
  if (!checked.ok) return { ok: false, message: packageProblemsMessage(checked.problems, file) };
  return { ok: true, manifest: checked.value };
}

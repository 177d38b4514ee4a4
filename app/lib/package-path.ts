/**
 * Where a version's package file lives in the private bucket 'agent-packages':
 * `<seller_id>/<agent_id>/<version>/<file name>`, the ids lower-case, the version as
 * agent_versions stores it, the file name of letters, digits, dot, dash and underscore (never
 * starting with a dot, never two dots in a row). The listing builds paths with packageFilePath,
 * the download checks a stored one with isPackagePath before it reads Storage, and the database
 * refuses any other (the check and trigger of migration 20261130000100_package_paths.sql, the
 * same rule in SQL).
 */
import { VERSION_FORMAT } from '~/lib/versions';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const FILE_NAME = '[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}';
const PACKAGE_PATH = new RegExp(`^(${UUID})/(${UUID})/(${VERSION_FORMAT})/(${FILE_NAME})$`);

export interface PackageOwner {
  sellerId: string;
  agentId: string;
  version: string;
}

/** The parts of a package path, or null when `path` is not one. */
export function parsePackagePath(path: string): (PackageOwner & { fileName: string }) | null {
  const match = PACKAGE_PATH.exec(path);
  if (!match || path.includes('..')) return null;
  return { sellerId: match[1]!, agentId: match[2]!, version: match[3]!, fileName: match[4]! };
}

/**
 * Whether `path` is a package path, and, given `owner`, the path of that seller's agent and
 * version (a version pointing at another agent's or another seller's file is not).
 */
export function isPackagePath(path: string, owner?: PackageOwner): boolean {
  const parts = parsePackagePath(path);
  if (!parts || !owner) return parts !== null;
  return parts.sellerId === owner.sellerId && parts.agentId === owner.agentId && parts.version === owner.version;
}

/** The package path of a seller's agent and version; throws when a part breaks the rule. */
export function packageFilePath(sellerId: string, agentId: string, version: string, fileName: string): string {
  const path = `${sellerId}/${agentId}/${version}/${fileName}`;
  if (!isPackagePath(path, { sellerId, agentId, version })) throw new Error(`Not a package path: ${path}`);
  return path;
}

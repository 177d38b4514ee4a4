/**
 * An agent version's number, as `agent_versions.version` stores it (its check constraint
 * `agent_versions_version_format`): 1.2 or 1.2.3, up to four digits a part.
 */

/** The format without anchors, for patterns that contain a version (package paths). */
export const VERSION_FORMAT = '[0-9]{1,4}(?:\\.[0-9]{1,4}){1,2}';

/** A whole string that is a version. */
export const VERSION_PATTERN = new RegExp(`^${VERSION_FORMAT}$`);

/** The version a new listing starts at. */
export const FIRST_VERSION = '1.0.0';

/** 1.10.0 > 1.9.0: numbers compared part by part, missing parts are 0. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

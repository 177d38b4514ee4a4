/**
 * Where the agent package format lives, without the schema itself (app/lib/agent-package.ts,
 * zod): pages that only name the format import this and keep zod out of their bundle.
 * docs/decisions/058-the-package-format-is-a-published-schema.md.
 */

/** The published JSON Schema, on the app's own origin (`app/routes/resources/agent-package-schema.ts`). */
export const AGENT_PACKAGE_SCHEMA_PATH = '/schemas/agent-package/v1.json';

/** The manifest of a ZIP package: this file at the archive's root. */
export const AGENT_MANIFEST_FILE = 'agent.json';

/** The largest manifest read out of a ZIP package (a JSON package is limited by the upload's 10 MB). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

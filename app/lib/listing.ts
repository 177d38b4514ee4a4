/** The listing pages' paths and agent statuses, for the pages and app/server/listing.server.ts. */
export const AGENTS_PATH = '/dashboard/agents';
export const UPLOAD_PATH = '/dashboard/upload';
export const editPath = (agentId: string) => `${AGENTS_PATH}/${agentId}/edit`;

export type AgentStatus = 'draft' | 'published' | 'archived';

/** The list's status buttons and the status each sets. */
export const STATUS_INTENTS = { publish: 'published', unpublish: 'draft', archive: 'archived' } as const;
export type StatusIntent = keyof typeof STATUS_INTENTS;

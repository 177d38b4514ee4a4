/** The listing pages' paths and agent statuses, for the pages and app/server/listing.server.ts. */
export const AGENTS_PATH = '/dashboard/agents';
export const UPLOAD_PATH = '/dashboard/upload';
export const editPath = (agentId: string) => `${AGENTS_PATH}/${agentId}/edit`;
/** Page `page` of My AI Agents (`?page=N`, page 1 without it), as the list's Pager links it. */
export const agentsHref = (page: number) => (page > 1 ? `${AGENTS_PATH}?page=${page}` : AGENTS_PATH);

export type AgentStatus = 'draft' | 'published' | 'archived';

/** The list's status buttons and the status each sets. */
export const STATUS_INTENTS = { publish: 'published', unpublish: 'draft', archive: 'archived' } as const;
export type StatusIntent = keyof typeof STATUS_INTENTS;

/** What a seller may do from each status: nothing brings back an agent a moderator unpublished. */
export function statusActions(status: AgentStatus, moderated: boolean): StatusIntent[] {
  const actions: Record<AgentStatus, StatusIntent[]> = {
    draft: ['publish', 'archive'],
    published: ['unpublish', 'archive'],
    archived: ['publish'],
  };
  return actions[status].filter((intent) => !(moderated && intent === 'publish'));
}

/** Why a seller cannot publish an agent a moderator unpublished (the list, the edit form, the actions). */
export const moderatedMessage = (reason: string) =>
  `An administrator unpublished this agent: ${reason}. You can still edit it and save it as a draft; only an administrator can publish it again.`;

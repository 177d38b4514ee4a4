/**
 * The admin forms of /dashboard/users (change a role, ban, unban) and /dashboard/moderation
 * (unpublish or restore an agent, remove a review). Every change needs a reason, which the
 * audit log keeps (and, for a moderated agent, its seller reads). Shared by the server actions
 * and the forms' constraints.
 */
import { z } from 'zod';
import { ROLES } from '~/lib/permissions';
import { REASON_MESSAGES, reasonSchema } from '~/schemas/reason';

/** The longest search term of the admin lists. */
export const MAX_ADMIN_SEARCH = 100;

export const ADMIN_MESSAGES = {
  user: 'Choose a user.',
  role: 'Choose buyer, seller or admin.',
  agent: 'Choose an agent.',
  review: 'Choose a review.',
  intent: 'Choose what to do.',
  reasonShort: REASON_MESSAGES.short,
  reasonLong: REASON_MESSAGES.long,
  ownAccount: 'You cannot demote or ban your own account.',
  lastAdmin: 'The last administrator cannot be demoted or banned.',
  userNotFound: 'This user no longer exists.',
  agentNotFound: 'This agent no longer exists.',
  reviewNotFound: 'This review no longer exists.',
  notPublished: 'Only a published agent can be unpublished.',
  notModerated: 'This agent was not unpublished by a moderator.',
  roleChanged: (username: string, role: string) => `The role of ${username} is now ${role}.`,
  banned: (username: string) => `${username} is banned. Their sessions have ended and their listings are hidden.`,
  unbanned: (username: string) => `${username} is no longer banned.`,
  unpublished: (name: string) => `${name} was unpublished.`,
  restored: (name: string) => `${name} is published again.`,
  reviewRemoved: 'The review was removed.',
} as const;

const reason = reasonSchema;

export const UserActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('role'),
      userId: z.guid(ADMIN_MESSAGES.user),
      role: z.enum(ROLES, ADMIN_MESSAGES.role),
      reason,
    }),
    z.object({ intent: z.literal('ban'), userId: z.guid(ADMIN_MESSAGES.user), reason }),
    z.object({ intent: z.literal('unban'), userId: z.guid(ADMIN_MESSAGES.user), reason }),
  ],
  ADMIN_MESSAGES.intent,
);
export type UserAction = z.infer<typeof UserActionSchema>;

export const ModerationActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('unpublish'), agentId: z.guid(ADMIN_MESSAGES.agent), reason }),
    z.object({ intent: z.literal('restore'), agentId: z.guid(ADMIN_MESSAGES.agent), reason }),
    z.object({ intent: z.literal('remove-review'), reviewId: z.guid(ADMIN_MESSAGES.review), reason }),
  ],
  ADMIN_MESSAGES.intent,
);
export type ModerationAction = z.infer<typeof ModerationActionSchema>;

/** `?manage=<id>` / `?moderate=<id>`: the row whose form is open, if the value is an id. */
export function parseIdParam(value: string | null): string | null {
  const result = z.guid().safeParse(value);
  return result.success ? result.data.toLowerCase() : null;
}

/**
 * Messages between a buyer and a seller (ADR 070): the forms of a conversation and of its first
 * message, and every sentence they show. The database holds the same limits (send_message,
 * report_conversation): 1 to 5,000 characters a message, 1 to 500 a report's reason.
 */
import { z } from 'zod';

export const MAX_MESSAGE_LENGTH = 5000;
export const MAX_REPORT_REASON_LENGTH = 500;

export const MESSAGE_MESSAGES = {
  intent: 'Choose what to do.',
  agent: 'Choose an agent.',
  report: 'Choose a report.',
  empty: 'Please write a message.',
  tooLong: `A message can be at most ${MAX_MESSAGE_LENGTH.toLocaleString('en-US')} characters.`,
  reasonEmpty: 'Please say why you report this conversation.',
  reasonTooLong: `Say why in at most ${MAX_REPORT_REASON_LENGTH} characters.`,
  tooFast: 'You are sending messages too fast. Wait a minute, then send again.',
  tooManyConversations: 'You started many conversations in the last hour. Wait a while, then try again.',
  tooManyReports: 'You reported many conversations today. Wait a day, or contact us.',
  nothingToReport: 'There is no message of the other person to report yet.',
  blocked: 'This conversation is blocked: no new messages can be sent.',
  cannotStart: 'You and this seller cannot message each other.',
  ownAgent: 'This is your own agent: buyers message you about it.',
  unknownAgent: 'This agent does not exist or is not published.',
  unknownConversation: 'This conversation does not exist or is not yours.',
  onlyBlockerUnblocks: 'Only the one who blocked this conversation can unblock it.',
  blockedDone: 'You blocked this conversation. Neither of you can send messages until you unblock it.',
  unblockedDone: 'You unblocked this conversation.',
  reportedDone: 'Thank you. An administrator will read this conversation and your reason.',
  resolvedDone: 'The report is closed.',
  unknownReport: 'This report does not exist or is closed already.',
} as const;

/** A message as sent: line breaks as typed (CRLF is one), trimmed; 1 to 5,000 characters. */
const body = z
  .string(MESSAGE_MESSAGES.empty)
  .transform((value) => value.replace(/\r\n?/g, '\n').trim())
  .pipe(z.string().min(1, MESSAGE_MESSAGES.empty).max(MAX_MESSAGE_LENGTH, MESSAGE_MESSAGES.tooLong));

export const ConversationActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('send'), body }),
    z.object({ intent: z.literal('block') }),
    z.object({ intent: z.literal('unblock') }),
    z.object({
      intent: z.literal('report'),
      reason: z
        .string(MESSAGE_MESSAGES.reasonEmpty)
        .trim()
        .min(1, MESSAGE_MESSAGES.reasonEmpty)
        .max(MAX_REPORT_REASON_LENGTH, MESSAGE_MESSAGES.reasonTooLong),
    }),
    z.object({ intent: z.literal('resolve'), reportId: z.guid(MESSAGE_MESSAGES.report) }),
  ],
  MESSAGE_MESSAGES.intent,
);
export type ConversationAction = z.infer<typeof ConversationActionSchema>;

/** The first message to an agent's seller (/dashboard/…/new?agent=…). */
export const NewConversationSchema = z.object({ agentId: z.guid(MESSAGE_MESSAGES.agent), body });

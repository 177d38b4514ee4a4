/**
 * A new version of a policy, as an admin writes it (ADR 069): the Markdown text and a sentence on
 * what changed, in the table's limits (migration 20261216000100). `intent`: preview or publish.
 */
import { z } from 'zod';
import { POLICY_MESSAGES } from '~/lib/policies';

export const MAX_POLICY_BODY = 50_000;
export const MAX_POLICY_SUMMARY = 500;

export const policyVersionSchema = z.object({
  intent: z.enum(['preview', 'publish']).default('preview'),
  body: z
    .string({ error: POLICY_MESSAGES.body })
    .trim()
    .min(1, POLICY_MESSAGES.body)
    .max(MAX_POLICY_BODY, POLICY_MESSAGES.body),
  summary: z
    .string({ error: POLICY_MESSAGES.summary })
    .trim()
    .min(1, POLICY_MESSAGES.summary)
    .max(MAX_POLICY_SUMMARY, POLICY_MESSAGES.summary),
});

export type PolicyVersionInput = z.infer<typeof policyVersionSchema>;

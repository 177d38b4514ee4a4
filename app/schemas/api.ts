/**
 * The JSON API's requests and answers (`/api/v1`, ADR 073): the routes validate with these, and
 * the OpenAPI document is generated from them.
 */
import { z } from 'zod';

/** `true`, `"true"`, `"1"` or `"on"` (a form's checkbox) are yes; absent is no. */
const flag = z.preprocess(
  (value) => (typeof value === 'string' ? ['true', '1', 'on'].includes(value.toLowerCase()) : value),
  z.boolean().default(false),
);

export const LicenseVerifyRequest = z.object({
  agent_id: z.uuid('agent_id must be the agent’s id (a UUID).'),
  license_key: z
    .string('license_key is required.')
    .trim()
    .min(1, 'license_key is required.')
    .max(100, 'license_key is at most 100 characters.'),
  increment_uses: flag.describe('Count one activation of the licence (refused past the agent’s limit).'),
});

export const VerifiedLicenseSchema = z.object({
  agent: z.object({ id: z.uuid(), name: z.string() }),
  versions: z.object({ first: z.string().nullable(), latest: z.string().nullable() }),
  status: z.enum(['active', 'refunded', 'disabled']),
  disabled_reason: z.string().nullable(),
  uses: z.number().int(),
  max_uses: z.number().int().nullable(),
  purchased_at: z.string(),
});

export const LicenseVerifyAnswer = z.object({ valid: z.boolean(), license: VerifiedLicenseSchema });

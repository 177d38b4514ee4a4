/**
 * The JSON API's requests and answers (`/api/v1`, ADRs 073 and 074): the routes validate with
 * these, and the OpenAPI document (`/api/v1/openapi.json`) is generated from them. A listing's
 * own rules are the listing form's (app/schemas/listing.ts): the API maps its JSON onto that form
 * and validates with the same schema, so the two cannot drift apart.
 */
import { z } from 'zod';

export const API_SCOPES = ['sales:read', 'listings:write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  'sales:read': 'Read sales and earnings',
  'listings:write': 'Manage listings (list, create, edit, publish versions)',
};

/** `true`, `"true"`, `"1"` or `"on"` (a form's checkbox) are yes; absent is no. */
const flag = z.preprocess(
  (value) => (typeof value === 'string' ? ['true', '1', 'on'].includes(value.toLowerCase()) : value),
  z.boolean().default(false),
);

// ---------------------------------------------------------------------------------------------
// Errors and pages
// ---------------------------------------------------------------------------------------------

export const ApiErrorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ example: 'invalid_request' }),
      message: z.string(),
      fields: z.record(z.string(), z.array(z.string())).optional().meta({
        description: 'Each invalid field, with its messages (the same as the dashboard’s form shows).',
      }),
    }),
  })
  .meta({ id: 'Error', description: 'Every error has this shape, with its HTTP status.' });

export const PageQuery = z.object({
  cursor: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'The `next_cursor` of the previous page; absent for the first page.' }),
  limit: z.coerce.number().int().min(1).max(100).default(25).meta({ description: 'Rows per page, 1 to 100.' }),
});

const page = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item),
      next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last.' }),
    })
    .meta({ id });

// ---------------------------------------------------------------------------------------------
// Licences (public)
// ---------------------------------------------------------------------------------------------

export const LicenseVerifyRequest = z
  .object({
    agent_id: z.uuid('agent_id must be the agent’s id (a UUID).'),
    license_key: z
      .string('license_key is required.')
      .trim()
      .min(1, 'license_key is required.')
      .max(100, 'license_key is at most 100 characters.')
      .meta({ example: '9F3A-1C2B-77D0-AB12-5E6F-0A1B-2C3D-4E5F' }),
    increment_uses: flag.meta({ description: 'Count one activation (refused past the agent’s activation limit).' }),
  })
  .meta({ id: 'LicenseVerifyRequest' });

export const VerifiedLicenseSchema = z
  .object({
    agent: z.object({ id: z.uuid(), name: z.string() }),
    versions: z
      .object({ first: z.string().nullable(), latest: z.string().nullable() })
      .meta({ description: 'The versions the licence covers: every version of the agent, updates included.' }),
    status: z.enum(['active', 'refunded', 'disabled']),
    disabled_reason: z.string().nullable(),
    uses: z.number().int(),
    max_uses: z.number().int().nullable().meta({ description: 'The agent’s activation limit; null = unlimited.' }),
    purchased_at: z.string(),
  })
  .meta({ id: 'License' });

export const LicenseVerifyAnswer = z
  .object({ valid: z.boolean(), license: VerifiedLicenseSchema })
  .meta({ id: 'LicenseVerification' });

// ---------------------------------------------------------------------------------------------
// Listings
// ---------------------------------------------------------------------------------------------

export const ApiAgentSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    category: z.string(),
    price: z.number(),
    features: z.array(z.string()),
    activation_limit: z.number().int().nullable(),
    status: z.enum(['draft', 'published', 'archived']),
    latest_version: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Agent' });

/** The listing's fields as JSON; validated by the listing form's own schema. */
export const ApiListingFields = z
  .object({
    name: z.string().meta({ example: 'Inbox Triage' }),
    description: z.string(),
    category: z.string().meta({ description: 'One of the marketplace’s categories, e.g. Customer Support.' }),
    price: z.union([z.number(), z.string()]).meta({ description: 'USD, 0 (free) up to the platform’s ceiling.' }),
    features: z.union([z.array(z.string()), z.string()]).optional(),
    activation_limit: z.union([z.number().int(), z.string(), z.null()]).optional(),
  })
  .meta({ id: 'ListingFields' });

export const ApiListingUpdate = ApiListingFields.partial().meta({ id: 'ListingUpdate' });

export const AgentPage = page(ApiAgentSchema, 'AgentPage');

export const ApiVersionSchema = z
  .object({
    version: z.string(),
    release_notes: z.string(),
    file_name: z.string(),
    file_size: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'Version' });

/** A new version, sent as multipart/form-data (the package is a file). */
export const ApiVersionUpload = z
  .object({
    version: z.string().meta({ example: '1.2.0', description: 'Higher than the latest version.' }),
    notes: z.string().meta({ description: 'Release notes: text, or a file such as CHANGELOG.md.' }),
    package: z.string().meta({ format: 'binary', description: 'The package: a JSON file or a ZIP archive.' }),
  })
  .meta({ id: 'VersionUpload' });

// ---------------------------------------------------------------------------------------------
// Sales and earnings
// ---------------------------------------------------------------------------------------------

export const ApiSaleSchema = z
  .object({
    id: z.uuid(),
    agent_id: z.uuid(),
    agent_name: z.string().nullable(),
    amount: z.number(),
    status: z.enum(['completed', 'pending', 'failed', 'refunded']),
    created_at: z.string(),
  })
  .meta({ id: 'Sale' });

export const SalePage = page(ApiSaleSchema, 'SalePage');

const Figures = z.object({
  sales_count: z.number().int(),
  gross: z.number(),
  refund_count: z.number().int(),
  refunds: z.number(),
  fee: z.number(),
  net: z.number(),
});

export const ApiEarningsSchema = z
  .object({
    fee_percent: z.number(),
    total: Figures,
    agents: z.array(Figures.extend({ agent_id: z.uuid(), agent_name: z.string() })),
  })
  .meta({ id: 'Earnings' });

// ---------------------------------------------------------------------------------------------
// The dashboard's token form
// ---------------------------------------------------------------------------------------------

export const TOKEN_EXPIRY_DAYS = ['30', '90', '365', 'never'] as const;

export const API_TOKEN_MESSAGES = {
  name: 'Please name the token (1 to 60 characters), e.g. “GitHub Actions”.',
  scopes: 'Choose at least one scope.',
  expiry: 'Choose when the token expires.',
  tooMany: 'You have 20 tokens, the most there can be. Revoke one first.',
  created: 'Your new token is below. Copy it now: it is not shown again.',
  revoked: 'The token is revoked: it no longer works.',
  notFound: 'This token does not exist, or is not yours.',
} as const;

export const CreateApiTokenSchema = z.object({
  intent: z.literal('create'),
  name: z.string(API_TOKEN_MESSAGES.name).trim().min(1, API_TOKEN_MESSAGES.name).max(60, API_TOKEN_MESSAGES.name),
  scopes: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.enum(API_SCOPES, API_TOKEN_MESSAGES.scopes)).min(1, API_TOKEN_MESSAGES.scopes),
  ),
  expires: z.enum(TOKEN_EXPIRY_DAYS, API_TOKEN_MESSAGES.expiry),
});

export const RevokeApiTokenSchema = z.object({ intent: z.literal('revoke'), tokenId: z.guid() });

/**
 * The seller API's listings (ADR 074): the caller's agents, a new draft, changed fields, a new
 * version. Each goes through the caller's own client (row-level security, the database's guards)
 * and the listing form's own rules: the JSON is mapped onto the form's fields and validated by
 * `listingSchema`, the package by `checkPackage`, the version by `checkVersion`, stored by
 * `storeVersion`: one definition for the dashboard and the API.
 */
import type { RouterContextProvider } from 'react-router';
import { connectionContext } from '~/context';
import { BEFORE_LISTING } from '~/lib/policies';
import { compareVersions, FIRST_VERSION } from '~/lib/versions';
import { ApiListingFields, ApiListingUpdate, type PageQuery } from '~/schemas/api';
import { LISTING_MESSAGES, listingSchema, type ListingForm } from '~/schemas/listing';
import type { ApiCaller } from '~/server/api/auth.server';
import { pageAfter, pageRows } from '~/server/api/pages.server';
import { apiError, apiJson, invalidRequest, isStorableText } from '~/server/api/responses.server';
import { forgetCatalogue, listCategories } from '~/server/agents.server';
import { AgentIdSchema } from '~/server/agent-detail.server';
import { notFound, unwrap } from '~/server/http-errors.server';
import {
  aboveCeiling,
  checkPackage,
  checkVersion,
  listingLimits,
  requireOwnAgent,
  storeVersion,
  type OwnAgent,
} from '~/server/listing.server';
import { pendingPolicies } from '~/server/policies.server';
import { announceVersion } from '~/server/updates.server';
import { createServiceSupabase, publicSupabase } from '~/server/supabase.server';
import type { z } from 'zod';

type Context = Readonly<RouterContextProvider>;

const AGENT_COLUMNS =
  'id, name, description, category, price, features, activation_limit, status, created_at, updated_at, agent_versions(version, created_at)';

type AgentRecord = {
  id: string;
  name: string;
  description: string;
  category: string;
  price: number;
  features: string[];
  activation_limit: number | null;
  status: string;
  created_at: string;
  updated_at: string;
  agent_versions: { version: string; created_at: string }[];
};

function toApiAgent(row: AgentRecord) {
  const latest = [...row.agent_versions].sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    price: Number(row.price),
    features: row.features,
    activation_limit: row.activation_limit,
    status: row.status,
    latest_version: latest?.version ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** GET /api/v1/agents: the caller's agents, newest first, a page at a time. */
export async function listOwnAgents(caller: ApiCaller, query: z.infer<typeof PageQuery>) {
  const rows = await pageRows<AgentRecord>(query, (after) =>
    pageAfter(
      caller.client.from('agents').select(AGENT_COLUMNS).eq('seller_id', caller.userId),
      after,
      query.limit,
    ).overrideTypes<AgentRecord[], { merge: false }>(),
  );
  if (rows instanceof Response) return rows;
  return apiJson({ data: rows.data.map(toApiAgent), next_cursor: rows.nextCursor });
}

/** The listing rules a change is held to: accepted policies first, as in the dashboard. */
async function policiesRefusal(caller: ApiCaller): Promise<Response | null> {
  const pending = await pendingPolicies(caller.client, BEFORE_LISTING);
  if (pending.length === 0) return null;
  return apiError(
    403,
    'forbidden',
    'Accept the updated policies in the dashboard first (they apply before a listing changes).',
  );
}

/** The JSON's fields as the listing form's (text, one feature per line), over the agent's own. */
function formFields(body: z.infer<typeof ApiListingUpdate>, existing: OwnAgent | null): Record<string, string> {
  const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  const features = body.features ?? existing?.features ?? [];
  return {
    intent: 'draft',
    name: text(body.name ?? existing?.name),
    description: text(body.description ?? existing?.description),
    category: text(body.category ?? existing?.category),
    price: text(body.price ?? existing?.price.toFixed(2)),
    features: Array.isArray(features) ? features.join('\n') : features,
    activation_limit: text(body.activation_limit === undefined ? existing?.activationLimit : body.activation_limit),
    version: '',
    release_notes: '',
  };
}

/**
 * The listing form's fields checked by the form's own schema, with the categories and the limits in
 * force (read together); the limits are returned for the package check.
 */
async function parseListingFields(context: Context, fields: Record<string, string>, currentPrice?: number) {
  const [categories, limits] = await Promise.all([
    listCategories(publicSupabase(context.get(connectionContext))),
    listingLimits(context, currentPrice),
  ]);
  const schema = listingSchema(
    categories.map((category) => category.name),
    limits,
  );
  return { parsed: schema.safeParse(fields), limits };
}

async function validListing(
  context: Context,
  body: Record<string, unknown>,
  existing: OwnAgent | null,
): Promise<ListingForm | Response> {
  const shape = (existing ? ApiListingUpdate : ApiListingFields).safeParse(body);
  if (!shape.success) return invalidRequest(shape.error);
  const { parsed } = await parseListingFields(context, formFields(shape.data, existing), existing?.price);
  return parsed.success ? parsed.data : invalidRequest(parsed.error);
}

/** The caller's own agent (else the 404) and whether the policies refuse a change, read together. */
async function ownAgentForChange(caller: ApiCaller, agentId: string | undefined) {
  const [existing, refusal] = await Promise.all([
    requireOwnAgent(caller.client, caller.userId, agentId),
    policiesRefusal(caller),
  ]);
  return { existing, refusal };
}

function listingColumns(value: ListingForm) {
  return {
    name: value.name,
    description: value.description,
    category: value.category,
    price: value.price,
    features: value.features,
    activation_limit: value.activation_limit,
  };
}

/** POST /api/v1/agents: a new draft listing (fields only: pictures and publishing are the dashboard's). */
export async function createDraft(caller: ApiCaller, context: Context, body: Record<string, unknown>) {
  const refusal = await policiesRefusal(caller);
  if (refusal) return refusal;
  const value = await validListing(context, body, null);
  if (value instanceof Response) return value;
  const inserted = await caller.client
    .from('agents')
    .insert({ seller_id: caller.userId, status: 'draft', ...listingColumns(value) })
    .select(AGENT_COLUMNS)
    .overrideTypes<AgentRecord[], { merge: false }>();
  if (aboveCeiling(inserted.error)) return priceRefusal(context);
  const [row] = unwrap(inserted, 'API agent insert');
  return apiJson(toApiAgent(row!), 201, { Location: `/api/v1/agents/${row!.id}` });
}

async function priceRefusal(context: Context) {
  const limits = await listingLimits(context);
  const message = LISTING_MESSAGES.price(limits);
  return apiError(400, 'invalid_request', message, { fields: { price: [message] } });
}

/** GET /api/v1/agents/:id: one of the caller's agents (another seller's, or no agent, is a 404). */
export async function readOwnAgent(caller: ApiCaller, agentId: string | undefined) {
  const id = AgentIdSchema.safeParse(agentId);
  if (!id.success) notFound();
  const row = unwrap(
    await caller.client
      .from('agents')
      .select(AGENT_COLUMNS)
      .eq('id', id.data.toLowerCase())
      .eq('seller_id', caller.userId)
      .maybeSingle()
      .overrideTypes<AgentRecord | null, { merge: false }>(),
    'API agent',
  );
  if (!row) notFound();
  return apiJson(toApiAgent(row));
}

/** PATCH /api/v1/agents/:id: the fields sent, validated with the others as the form would be. */
export async function updateListing(
  caller: ApiCaller,
  context: Context,
  agentId: string | undefined,
  body: Record<string, unknown>,
) {
  const { existing, refusal } = await ownAgentForChange(caller, agentId);
  if (refusal) return refusal;
  const value = await validListing(context, body, existing);
  if (value instanceof Response) return value;
  const updated = await caller.client
    .from('agents')
    .update(listingColumns(value))
    .eq('id', existing.id)
    .eq('seller_id', caller.userId)
    .select(AGENT_COLUMNS)
    .overrideTypes<AgentRecord[], { merge: false }>();
  if (aboveCeiling(updated.error)) return priceRefusal(context);
  const [row] = unwrap(updated, 'API agent update');
  forgetCatalogue();
  return apiJson(toApiAgent(row!));
}

/** GET /api/v1/agents/:id/versions: every version, newest first. */
export async function listVersions(caller: ApiCaller, agentId: string | undefined) {
  const agent = await requireOwnAgent(caller.client, caller.userId, agentId);
  const rows = unwrap(
    await caller.client
      .from('agent_versions')
      .select('version, release_notes, file_name, file_size, created_at')
      .eq('agent_id', agent.id)
      .order('created_at', { ascending: false }),
    'API versions',
  );
  return apiJson({ data: rows });
}

const versionExists = (version: string) => apiError(409, 'conflict', `Version ${version} exists already.`);

/**
 * POST /api/v1/agents/:id/versions (multipart): `version`, `notes` (text or a file) and `package`,
 * held to the form's rules: a higher version, release notes after the first, a JSON or ZIP package
 * within the platform's size limit.
 */
export async function publishVersion(
  caller: ApiCaller,
  context: Context,
  request: Request,
  agentId: string | undefined,
  body: Record<string, unknown>,
) {
  const { existing, refusal } = await ownAgentForChange(caller, agentId);
  if (refusal) return refusal;
  const packageFile = body.package instanceof File ? body.package : null;
  if (!packageFile) {
    const message = 'Send the package as a file field named package (multipart/form-data).';
    return apiError(400, 'invalid_request', message, { fields: { package: [message] } });
  }
  const notes = body.notes instanceof File ? await body.notes.text() : typeof body.notes === 'string' ? body.notes : '';
  if (!isStorableText(notes)) {
    const message = 'The release notes must be text without null characters.';
    return apiError(400, 'invalid_request', message, { fields: { release_notes: [message] } });
  }
  const version = typeof body.version === 'string' ? body.version : '';

  const fields = { ...formFields({}, existing), version, release_notes: notes };
  const { parsed, limits } = await parseListingFields(context, fields, existing.price);
  const checkedPackage = await checkPackage(packageFile, limits.packageMb);
  const fieldErrors: Record<string, string[]> = {};
  if (!checkedPackage.ok) fieldErrors.package = [checkedPackage.message];
  if (!parsed.success) return invalidRequest(parsed.error);
  const checkedVersion = checkVersion(parsed.data, checkedPackage, existing, fieldErrors);
  // The latest version sent again is a conflict, whether it was stored before this request
  // read the listing or while it ran (the unique row below): one answer for both.
  if (existing.latestVersion && checkedVersion && compareVersions(checkedVersion, existing.latestVersion) === 0) {
    return versionExists(checkedVersion);
  }
  if (Object.keys(fieldErrors).length > 0 || !checkedPackage.ok) {
    const first = Object.values(fieldErrors)[0]?.[0] ?? LISTING_MESSAGES.check;
    return apiError(400, 'invalid_request', first, { fields: fieldErrors });
  }
  const stored = await storeVersion({
    service: createServiceSupabase(context.get(connectionContext)),
    sellerId: caller.userId,
    agentId: existing.id,
    version: checkedVersion || FIRST_VERSION,
    releaseNotes: parsed.data.release_notes || 'Initial release.',
    checkedPackage,
    fileName: packageFile.name,
  });
  if (stored === 'exists') return versionExists(checkedVersion);
  forgetCatalogue();
  if (existing.latestVersion) {
    announceVersion(context, request, {
      agentId: existing.id,
      version: checkedVersion,
      releaseNotes: parsed.data.release_notes,
    });
  }
  const [row] = unwrap(
    await caller.client
      .from('agent_versions')
      .select('version, release_notes, file_name, file_size, created_at')
      .eq('agent_id', existing.id)
      .eq('version', checkedVersion)
      .limit(1),
    'API version',
  );
  return apiJson(row, 201);
}

/**
 * Listing agents: the seller's agent list, status changes, and the Upload / Edit
 * action. Every write to an agent goes through the seller's own client, so row-level security
 * ("agents: seller inserts/updates own") is the last word on ownership; files, and a version's
 * row with its file fields, are written with the service role only after that check (only
 * trusted server code writes agent_versions; the database also refuses a file path outside the
 * agent's own folder, app/lib/package-path.ts).
 *
 * Files after an error: a valid new thumbnail or image is stored at once (under the seller's and
 * the agent's ids) and comes back as a ticked "keep" checkbox, so a form sent again keeps it,
 * with or without JavaScript. The package is stored only when the whole form is valid (it may be
 * up to 10 MB, a limit a platform setting may lower, and its path holds the version); after an
 * error it must be chosen again, and the form says so. Images stored for a form that is then
 * abandoned stay in the bucket (orphans).
 */
import { forgetPlatformSettings, platformSettings } from '~/server/platform-settings.server';
import { data } from 'react-router';
import type { FormResult } from '~/lib/form-result';
import {
  AGENTS_PATH,
  agentsHref,
  moderatedMessage,
  STATUS_INTENTS,
  type AgentStatus,
  type StatusIntent,
} from '~/lib/listing';
import { connectionContext, supabaseContext } from '~/context';
import {
  detectImageKind,
  detectPackageKind,
  IMAGE_CONTENT_TYPES,
  IMAGE_EXTENSIONS,
  PACKAGE_CONTENT_TYPES,
  safeFileName,
  type ImageKind,
  type PackageKind,
} from '~/lib/file-signatures';
import { packageFilePath } from '~/lib/package-path';
import {
  LISTING_MESSAGES,
  listingSchema,
  MAX_IMAGE_MB,
  MAX_IMAGES,
  MAX_PACKAGE_MB,
  MB,
  type ListingForm,
  type ListingLimits,
} from '~/schemas/listing';
import { compareVersions, FIRST_VERSION } from '~/lib/versions';
import { forgetCatalogue, listCategories } from '~/server/agents.server';
import { readAgentPackage } from '~/server/agent-package.server';
import { AgentIdSchema } from '~/server/agent-detail.server';
import { redirectWithFlash } from '~/server/cookies.server';
import { chosenFiles, textFields } from '~/server/form-files.server';
import { formError, parseForm } from '~/server/forms.server';
import { requirePermission, type GuardArgs } from '~/server/guards.server';
import { notFound, unwrap } from '~/server/http-errors.server';
import { pageParam } from '~/lib/pagination';
import { pageOf, type Page } from '~/server/paged-lists.server';
import { requireAcceptedPolicies } from '~/server/policies.server';
import { BEFORE_LISTING } from '~/lib/policies';
import { createServiceSupabase, publicSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import { IMAGES_BUCKET, PACKAGES_BUCKET } from '~/lib/storage-buckets';
import { announceVersion } from '~/server/updates.server';

const AGENT_NOT_FOUND = {
  title: 'Agent not found',
  message: 'This agent does not exist or is not one of yours. Open it from My AI Agents.',
};

/**
 * Where an agent's picture is stored: the same-site path of the upload in the agent-images bucket,
 * the only new picture the database takes (`public.is_own_agent_image`). The browser reads it from
 * this site, or from hosted Supabase's origin (`useStoredImage`).
 */
export const AGENT_IMAGE_PATH = `/storage/v1/object/public/${IMAGES_BUCKET}/`;

/** A stored picture's name: a UUID and its type, as the database's rule (`is_own_agent_image`) reads it. */
const STORED_IMAGE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|gif|webp)$/;

/** Whether `url` is an image this form stored for this seller's agent. */
export function isStoredImageOf(url: string, sellerId: string, agentId: string): boolean {
  const own = `${AGENT_IMAGE_PATH}${sellerId}/${agentId}/`;
  return url.startsWith(own) && STORED_IMAGE_NAME.test(url.slice(own.length));
}

// ---------------------------------------------------------------------------------------------
// The seller's agents
// ---------------------------------------------------------------------------------------------

export interface SellerAgent {
  id: string;
  name: string;
  status: AgentStatus;
  price: number;
  sales: number;
  avgRating: number | null;
  reviewCount: number;
  lastVersion: string | null;
  lastVersionAt: string | null;
  /** Set when an administrator unpublished the agent (it stays a draft until they restore it). */
  moderationReason: string | null;
}

/**
 * One page (`DASHBOARD_PAGE_SIZE`, the dashboard lists') of the seller's agents, newest first,
 * whatever their status (their own client: RLS), with the total counted by the database. One
 * request: each agent with its stats row and only its latest version, so a page is 25 rows
 * however many agents and versions the seller has (the Data API answers at most 1,000 rows).
 */
export async function listSellerAgents(
  client: AppSupabaseClient,
  { sellerId, page }: { sellerId: string; page: number },
): Promise<Page<SellerAgent>> {
  const result = await pageOf(
    page,
    (from, to) =>
      client
        .from('agents')
        .select(
          'id, name, status, price, moderation_reason, agent_stats(purchase_count, avg_rating, review_count, last_version_at), agent_versions(version)',
          { count: 'exact' },
        )
        .eq('seller_id', sellerId)
        .order('created_at', { ascending: false })
        .order('id')
        .order('created_at', { referencedTable: 'agent_versions', ascending: false })
        .order('version', { referencedTable: 'agent_versions', ascending: false })
        .limit(1, { referencedTable: 'agent_versions' })
        .range(from, to),
    'seller agents',
  );
  return {
    ...result,
    rows: result.rows.map((row) => {
      const reviewCount = Number(row.agent_stats?.review_count ?? 0);
      return {
        id: row.id,
        name: row.name,
        status: row.status as AgentStatus,
        price: Number(row.price),
        sales: Number(row.agent_stats?.purchase_count ?? 0),
        avgRating: reviewCount > 0 ? Number(row.agent_stats?.avg_rating) : null,
        reviewCount,
        lastVersion: row.agent_versions[0]?.version ?? null,
        lastVersionAt: row.agent_stats?.last_version_at ?? null,
        moderationReason: row.moderation_reason,
      };
    }),
  };
}

export interface OwnAgent {
  id: string;
  name: string;
  description: string;
  price: number;
  category: string;
  features: string[];
  thumbnailUrl: string | null;
  images: string[];
  status: AgentStatus;
  /** How many activations one licence allows (ADR 073); null = no limit. */
  activationLimit: number | null;
  latestVersion: string | null;
  /** Set when an administrator unpublished the agent: only they can publish it again. */
  moderationReason: string | null;
}

/** The seller's own agent, or the 404 (someone else's agent looks like no agent at all). */
export async function requireOwnAgent(
  client: AppSupabaseClient,
  sellerId: string,
  agentIdParam: string | undefined,
): Promise<OwnAgent> {
  const parsed = AgentIdSchema.safeParse(agentIdParam);
  if (!parsed.success) notFound(AGENT_NOT_FOUND);
  const agentId = parsed.data.toLowerCase();
  const [agent, versions] = await Promise.all([
    client
      .from('agents')
      .select(
        'id, name, description, price, category, features, thumbnail_url, images, status, moderation_reason, activation_limit',
      )
      .eq('id', agentId)
      .eq('seller_id', sellerId)
      .maybeSingle(),
    client.from('agent_versions').select('version').eq('agent_id', agentId).order('created_at', { ascending: false }),
  ]);
  const row = unwrap(agent, { what: 'own agent', notFound: AGENT_NOT_FOUND });
  const known = unwrap(versions, 'own agent versions').map((version) => version.version);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: Number(row.price),
    category: row.category,
    features: row.features,
    thumbnailUrl: row.thumbnail_url,
    images: row.images,
    status: row.status as AgentStatus,
    moderationReason: row.moderation_reason,
    activationLimit: row.activation_limit,
    latestVersion: known.reduce<string | null>(
      (highest, version) => (highest === null || compareVersions(version, highest) > 0 ? version : highest),
      null,
    ),
  };
}

export const STATUS_MESSAGES: Record<StatusIntent, (name: string) => string> = {
  publish: (name) => `${name} is published: it is in the marketplace now.`,
  unpublish: (name) => `${name} is unpublished: it is a draft again, only you can see it.`,
  archive: (name) => `${name} is archived: it left the marketplace; its buyers keep it.`,
};

/**
 * The list's Publish / Unpublish / Archive buttons. The seller's own client and `seller_id` in the
 * filter: another seller's agent is a 404 and nothing changes. Publishing needs a package.
 */
export async function changeStatusAction(args: GuardArgs & { request: Request }) {
  const viewer = requirePermission(args, 'manage_products');
  await requireAcceptedPolicies(args.context, BEFORE_LISTING, `${args.url.pathname}${args.url.search}`);
  const client = args.context.get(supabaseContext);
  const form = await args.request.formData();
  const intent = String(form.get('intent') ?? '');
  if (!(intent in STATUS_INTENTS)) {
    return data({ ok: false, message: 'Choose Publish, Unpublish or Archive.' }, { status: 400 });
  }
  const statusIntent = intent as StatusIntent;
  const agent = await requireOwnAgent(client, viewer.id, String(form.get('agentId') ?? ''));
  if (statusIntent === 'publish' && agent.moderationReason) {
    return data({ ok: false, message: `${agent.name}: ${moderatedMessage(agent.moderationReason)}` }, { status: 409 });
  }
  if (statusIntent === 'publish' && !agent.latestVersion) {
    return data({ ok: false, message: `${agent.name}: ${LISTING_MESSAGES.packageRequired}` }, { status: 400 });
  }
  const updated = unwrap(
    await client
      .from('agents')
      .update({ status: STATUS_INTENTS[statusIntent] })
      .eq('id', agent.id)
      .eq('seller_id', viewer.id)
      .select('id'),
    'agent status',
  );
  if (updated.length === 0) notFound(AGENT_NOT_FOUND);
  forgetCatalogue();
  // Back to the page of the list the button was on (a status change does not move the agent).
  const page = pageParam(new URL(args.request.url).searchParams.get('page'));
  return redirectWithFlash(args.request, agentsHref(page), {
    kind: 'success',
    message: STATUS_MESSAGES[statusIntent](agent.name),
  });
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

type Checked<K> = { ok: true; kind: K; bytes: Uint8Array<ArrayBuffer> } | { ok: false; message: string };

/** An image: at most `imageMb` (the platform setting; the storage's cap by default), then its bytes. */
export async function checkImage(file: File, imageMb = MAX_IMAGE_MB): Promise<Checked<ImageKind>> {
  if (file.size > imageMb * MB)
    return { ok: false, message: `${file.name}: ${LISTING_MESSAGES.imageTooLarge(imageMb)}` };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = detectImageKind(bytes);
  return kind ? { ok: true, kind, bytes } : { ok: false, message: `${file.name}: ${LISTING_MESSAGES.imageType}` };
}

/** A package: JSON or ZIP by its bytes, and its manifest in the agent package format (its problems named). */
export async function checkPackage(file: File, packageMb = MAX_PACKAGE_MB): Promise<Checked<PackageKind>> {
  if (file.size > packageMb * MB) return { ok: false, message: LISTING_MESSAGES.packageTooLarge(packageMb) };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = detectPackageKind(bytes);
  if (!kind) return { ok: false, message: LISTING_MESSAGES.packageType };
  const manifest = readAgentPackage(bytes, kind);
  return manifest.ok ? { ok: true, kind, bytes } : { ok: false, message: manifest.message };
}

async function storeImage(
  service: AppSupabaseClient,
  folder: string,
  image: { kind: ImageKind; bytes: Uint8Array<ArrayBuffer> },
): Promise<string> {
  const path = `${folder}/${crypto.randomUUID()}.${IMAGE_EXTENSIONS[image.kind]}`;
  const { error } = await service.storage
    .from(IMAGES_BUCKET)
    .upload(path, image.bytes, { contentType: IMAGE_CONTENT_TYPES[image.kind], upsert: false });
  unwrap({ data: null, error }, 'image upload');
  return `${AGENT_IMAGE_PATH}${path}`;
}

// ---------------------------------------------------------------------------------------------
// Upload and Edit
// ---------------------------------------------------------------------------------------------

type Mode = { kind: 'upload' } | { kind: 'edit'; agentIdParam: string | undefined };

interface ActionArgs extends GuardArgs {
  request: Request;
}

/** Whether an agent with this id exists at all (service role: whoever owns it). */
async function agentIdTaken(service: AppSupabaseClient, agentId: string): Promise<boolean> {
  const rows = unwrap(await service.from('agents').select('id').eq('id', agentId).limit(1), 'agent id');
  return rows.length > 0;
}

/**
 * What the listing form takes (`ListingLimits`): the price ceiling in force and the agent's own
 * price, and the largest image and package (platform settings).
 */
export async function listingLimits(context: ActionArgs['context'], currentPrice?: number): Promise<ListingLimits> {
  const settings = await platformSettings(context);
  return {
    maxPrice: settings.maxAgentPrice,
    currentPrice,
    imageMb: settings.maxImageMb,
    packageMb: settings.maxPackageMb,
  };
}

/**
 * The Upload and Edit action: permission, ownership, then the text fields (zod) and the files
 * (by their bytes). Errors answer 400 with a message per field and everything typed; a valid
 * form saves the agent (seller's client), its package as a new version, and redirects to the list.
 */
export async function listingAction(args: ActionArgs, mode: Mode) {
  const viewer = requirePermission(args, mode.kind === 'upload' ? 'upload_ai_agents' : 'manage_products');
  // A newer Seller Policy (or Terms) is accepted before a listing change (ADR 069).
  await requireAcceptedPolicies(args.context, BEFORE_LISTING, `${args.url.pathname}${args.url.search}`);
  const client = args.context.get(supabaseContext);
  const connection = args.context.get(connectionContext);
  const existing = mode.kind === 'edit' ? await requireOwnAgent(client, viewer.id, mode.agentIdParam) : null;
  const service = createServiceSupabase(connection);

  const form = await args.request.formData();
  const fields = textFields(form);
  const agentId = existing?.id ?? (await claimDraftId(service, fields));
  if (typeof agentId !== 'string') return agentId;

  const [categoryList, limits] = await Promise.all([
    listCategories(publicSupabase(connection)),
    listingLimits(args.context, existing?.price),
  ]);
  const { fieldErrors, stored } = await takeImages({
    form,
    fields,
    service,
    sellerId: viewer.id,
    agentId,
    existing,
    imageMb: limits.imageMb,
  });

  // The package: checked now, stored only once everything is valid.
  const packageFile = chosenFiles(form, 'package')[0];
  const checkedPackage = packageFile ? await checkPackage(packageFile, limits.packageMb) : null;
  if (checkedPackage && !checkedPackage.ok) fieldErrors.package = [checkedPackage.message];

  const categories = categoryList.map((category) => category.name);
  const submission = parseForm(fields, listingSchema(categories, limits));
  const value = submission.status === 'success' ? submission.value : null;

  // The database refuses it too (guard_agent_moderation); refused here before anything is saved.
  if (value?.intent === 'publish' && existing?.moderationReason) {
    return formError(submission, { message: moderatedMessage(existing.moderationReason), status: 409 });
  }

  const version = value ? checkVersion(value, checkedPackage, existing, fieldErrors) : FIRST_VERSION;
  if (!value || Object.keys(fieldErrors).length > 0) {
    const hints = checkedPackage?.ok
      ? ['Choose the package file again: it is saved only with a valid form.']
      : undefined;
    return formError(submission, {
      fieldErrors: Object.keys(fieldErrors).length ? fieldErrors : undefined,
      message: LISTING_MESSAGES.check,
      hints,
    });
  }

  const saved = await saveListing({
    client,
    service,
    sellerId: viewer.id,
    agentId,
    existing,
    value,
    version,
    checkedPackage,
    packageFile,
  });
  if (saved === 'above-ceiling') {
    // The ceiling was lowered meanwhile (in another process, or within this one's cache): the
    // database refused the price. The message names the ceiling read afresh.
    if (stored.length) await service.storage.from(IMAGES_BUCKET).remove(stored);
    forgetPlatformSettings();
    const { maxAgentPrice } = await platformSettings(args.context);
    const message = LISTING_MESSAGES.price({ maxPrice: maxAgentPrice, currentPrice: existing?.price });
    return formError(submission, { fieldErrors: { price: [message] }, message: LISTING_MESSAGES.check });
  }
  if (saved === 'already-sent') {
    // The same Upload form sent twice at once: the other request made the agent. This one's
    // pictures go, and it is told as a form sent twice is.
    if (stored.length) await service.storage.from(IMAGES_BUCKET).remove(stored);
    return expiredForm(409);
  }
  forgetCatalogue();
  // A new version of an agent that had one: its buyers are told (ADR 075).
  if (existing?.latestVersion && checkedPackage?.ok) {
    announceVersion(args.context, args.request, { agentId, version, releaseNotes: value.release_notes });
  }
  const published = value.intent === 'publish';
  const message = existing
    ? `${value.name} is saved${published ? ' and published' : ' as a draft'}.`
    : `${value.name} is ${published ? 'published: it is in the marketplace now' : 'saved as a draft'}.`;
  return redirectWithFlash(args.request, AGENTS_PATH, { kind: 'success', message });
}

/**
 * A new listing's id, from the form the Upload page served (`draft_id`): the answer to send
 * instead when there is none (400, not a form this page served) or it is taken (409, the same
 * form sent again).
 */
async function claimDraftId(service: AppSupabaseClient, fields: FormData) {
  const draftId = AgentIdSchema.safeParse(fields.get('draft_id'));
  const taken = draftId.success && (await agentIdTaken(service, draftId.data.toLowerCase()));
  if (draftId.success && !taken) return draftId.data.toLowerCase();
  return expiredForm(taken ? 409 : 400);
}

/** The answer to a form this page did not serve (400) or that was already sent (409). */
function expiredForm(status: 400 | 409) {
  const expired: FormResult = {
    ok: false,
    status: 'error',
    message: 'This form has expired. Please reload the page and try again.',
  };
  return data(expired, { status });
}

/**
 * The pictures: new ones checked by their bytes and stored now, kept ones only when they are this
 * agent's; both written back into `fields` as `keep_thumbnail` / `keep_images`, which the schema
 * reads. Answers the field errors of the pictures and the Storage paths of those it stored.
 */
async function takeImages({
  form,
  fields,
  service,
  sellerId,
  agentId,
  existing,
  imageMb,
}: {
  form: FormData;
  fields: FormData;
  service: AppSupabaseClient;
  sellerId: string;
  agentId: string;
  existing: OwnAgent | null;
  imageMb: number;
}): Promise<{ fieldErrors: Record<string, string[]>; stored: string[] }> {
  const folder = `${sellerId}/${agentId}`;
  const fieldErrors: Record<string, string[]> = {};
  const stored: string[] = [];
  const store = async (image: { kind: ImageKind; bytes: Uint8Array<ArrayBuffer> }) => {
    const url = await storeImage(service, folder, image);
    stored.push(url.slice(AGENT_IMAGE_PATH.length));
    return url;
  };
  const mayKeep = (url: string) =>
    isStoredImageOf(url, sellerId, agentId) ||
    url === existing?.thumbnailUrl ||
    (existing?.images.includes(url) ?? false);

  const keptImages = fields
    .getAll('keep_images')
    .filter((url): url is string => typeof url === 'string' && mayKeep(url));
  const newImages = chosenFiles(form, 'images');
  const thumbnailFile = chosenFiles(form, 'thumbnail')[0];
  const imageErrors: string[] = [];
  if (keptImages.length + newImages.length > MAX_IMAGES) imageErrors.push(LISTING_MESSAGES.tooManyImages);
  const checkedImages = imageErrors.length ? [] : await Promise.all(newImages.map((file) => checkImage(file, imageMb)));
  const checkedThumbnail = thumbnailFile ? await checkImage(thumbnailFile, imageMb) : null;
  if (checkedThumbnail && !checkedThumbnail.ok) fieldErrors.thumbnail = [checkedThumbnail.message];
  for (const image of checkedImages) if (!image.ok) imageErrors.push(image.message);
  if (imageErrors.length) fieldErrors.images = imageErrors;

  fields.delete('keep_thumbnail');
  fields.delete('keep_images');
  const keptThumbnail = String(form.get('keep_thumbnail') ?? '');
  if (checkedThumbnail?.ok) {
    fields.set('keep_thumbnail', await store(checkedThumbnail));
  } else if (keptThumbnail && mayKeep(keptThumbnail)) {
    fields.set('keep_thumbnail', keptThumbnail);
  }
  for (const url of keptImages) fields.append('keep_images', url);
  for (const image of checkedImages) {
    if (image.ok) fields.append('keep_images', await store(image));
  }
  return { fieldErrors, stored };
}

/**
 * The version a new package is saved as: the one typed (the first version by default for a new
 * listing), higher than the latest, with release notes after the first; a listing published
 * without any package is refused. Problems go into `fieldErrors`.
 */
export function checkVersion(
  value: ListingForm,
  checkedPackage: Checked<PackageKind> | null,
  existing: OwnAgent | null,
  fieldErrors: Record<string, string[]>,
): string {
  let version = FIRST_VERSION;
  if (checkedPackage) {
    version = value.version || (existing?.latestVersion ? '' : FIRST_VERSION);
    if (!version) fieldErrors.version = [LISTING_MESSAGES.version];
    else if (existing?.latestVersion && compareVersions(version, existing.latestVersion) <= 0) {
      fieldErrors.version = [LISTING_MESSAGES.versionNotHigher(existing.latestVersion)];
    }
    if (existing?.latestVersion && !value.release_notes)
      fieldErrors.release_notes = [LISTING_MESSAGES.releaseNotesRequired];
  }
  if (value.intent === 'publish' && !checkedPackage && !existing?.latestVersion) {
    fieldErrors.package ??= [LISTING_MESSAGES.packageRequired];
  }
  return version;
}

/** What a valid Upload or Edit form saves: the agent (seller's client) and a new package version. */
interface ListingSave {
  client: AppSupabaseClient;
  service: AppSupabaseClient;
  sellerId: string;
  agentId: string;
  existing: OwnAgent | null;
  value: ListingForm;
  version: string;
  checkedPackage: Checked<PackageKind> | null;
  packageFile: File | undefined;
}

/** The database's price ceiling (migration 20261211000100), by its constraint name. */
export const aboveCeiling = (error: { code?: string; message?: string } | null) =>
  error?.code === '23514' && (error.message ?? '').startsWith('The price can be at most');

/**
 * A checked package stored as a new version of the seller's agent (the listing form and the seller
 * API): its row, then the file in Storage. The service role writes both: the caller checked that
 * the agent is the seller's, with the seller's own client. 'exists' when the version was taken
 * meanwhile (the same upload sent twice at once).
 */
export async function storeVersion({
  service,
  sellerId,
  agentId,
  version,
  releaseNotes,
  checkedPackage,
  fileName: typedName,
}: {
  service: AppSupabaseClient;
  sellerId: string;
  agentId: string;
  version: string;
  releaseNotes: string;
  checkedPackage: { kind: PackageKind; bytes: Uint8Array };
  fileName: string;
}): Promise<'stored' | 'exists'> {
  const fileName = safeFileName(typedName, checkedPackage.kind);
  const filePath = packageFilePath(sellerId, agentId, version, fileName);
  const contentType = PACKAGE_CONTENT_TYPES[checkedPackage.kind];
  // The row first: it claims the version, so of two uploads of one version sent at once only the
  // one that made it writes the file (the other's 'exists' touches nothing).
  const inserted = await service
    .from('agent_versions')
    .insert({
      agent_id: agentId,
      version,
      release_notes: releaseNotes,
      file_path: filePath,
      file_name: fileName,
      content_type: contentType,
      file_size: checkedPackage.bytes.byteLength,
    })
    .select('id')
    .single();
  if (inserted.error?.code === '23505') return 'exists';
  const row = unwrap(inserted, 'agent version');
  const { error } = await service.storage
    .from(PACKAGES_BUCKET)
    .upload(filePath, checkedPackage.bytes, { contentType, upsert: true });
  if (error) {
    // No file, no version: the row goes, and the upload can be sent again.
    await service.from('agent_versions').delete().eq('id', row.id);
    unwrap({ data: null, error }, 'package upload');
  }
  return 'stored';
}

async function saveListing(save: ListingSave): Promise<'saved' | 'already-sent' | 'above-ceiling'> {
  const { client, service, sellerId, agentId, existing, value, version, checkedPackage, packageFile } = save;
  const listing = {
    name: value.name,
    description: value.description,
    category: value.category,
    price: value.price,
    features: value.features,
    activation_limit: value.activation_limit,
    thumbnail_url: value.keep_thumbnail || null,
    images: value.keep_images,
  };
  // Saved as a draft first: it is published only once its package version exists.
  if (existing) {
    const result = await client
      .from('agents')
      .update({ ...listing, ...(value.intent === 'draft' ? { status: 'draft' } : {}) })
      .eq('id', agentId)
      .eq('seller_id', sellerId)
      .select('id');
    if (aboveCeiling(result.error)) return 'above-ceiling';
    const updated = unwrap(result, 'agent update');
    if (updated.length === 0) notFound(AGENT_NOT_FOUND);
  } else {
    const inserted = await client
      .from('agents')
      .insert({ id: agentId, seller_id: sellerId, status: 'draft', ...listing });
    // Its id taken meanwhile: the same form, sent twice at once (unique_violation).
    if (inserted.error?.code === '23505') return 'already-sent';
    if (aboveCeiling(inserted.error)) return 'above-ceiling';
    unwrap(inserted, 'agent insert');
  }
  if (checkedPackage?.ok && packageFile) {
    const stored = await storeVersion({
      service,
      sellerId,
      agentId,
      version,
      releaseNotes: value.release_notes || (existing ? '' : 'Initial release.'),
      checkedPackage,
      fileName: packageFile.name,
    });
    if (stored === 'exists') return 'already-sent';
  }
  if (value.intent === 'publish') {
    unwrap(
      await client.from('agents').update({ status: 'published' }).eq('id', agentId).eq('seller_id', sellerId),
      'agent publish',
    );
  }
  return 'saved';
}

/**
 * Reads of the agent page, through the request's Supabase client so row-level security decides
 * what the viewer may see: anon only published agents, a seller also their own drafts, an admin
 * everything, a buyer also agents they bought. A few indexed queries, run in parallel.
 */
import { z } from 'zod';
import {
  galleryImages,
  ratedReviewCount,
  reviewPaging,
  REVIEWS_PER_PAGE,
  type AgentDetail,
  type AgentReview,
  type AgentStatus,
  type RatingCount,
  type ReviewPaging,
} from '~/lib/agent-detail';
import { agentListing } from '~/lib/agents';
import { ShownPriceSchema } from '~/lib/shown-price';
import type { SupabaseConnection } from '~/context';
import { packageInside, type PackageInside } from '~/lib/agent-package';
import { detectPackageKind } from '~/lib/file-signatures';
import { readAgentPackage } from '~/server/agent-package.server';
import { sharedCatalogueRead } from '~/server/agents.server';
import { readPackageFile } from '~/server/downloads.server';
import { REPLY_EMBED, toReply } from '~/server/review-replies.server';
import { notFound, unwrap } from '~/server/http-errors.server';
import { createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import { createTtlCache } from '~/server/ttl-cache.server';
import type { Tables } from '~/types/database';
import type { WithNonNull } from '~/types/rows';

/** What the 503 screen says when a read of the agent page fails. */
export const AGENT_UNAVAILABLE_MESSAGE = 'We could not load this agent right now. Please try again in a moment.';
const failure = (what: string) => ({ what, unavailable: AGENT_UNAVAILABLE_MESSAGE });

/** Any uuid-shaped id (Postgres accepts every version); anything else is a 404, never a 22P02. */
export const AgentIdSchema = z.guid();
/**
 * Buy: the intent, the form's idempotency key (the same submission twice is one purchase) and
 * the price the buyer was shown. The price charged comes from the database; the shown one is
 * only what the buyer agreed to, and any other is refused (purchases.server.ts `checkShownPrice`).
 */
export const BuySchema = z.object({
  intent: z.literal('buy'),
  idempotencyKey: z.uuid({ error: 'This form has expired. Please reload the page and try again.' }),
  price: ShownPriceSchema,
});

const NOT_FOUND_MESSAGE =
  "This agent doesn't exist, isn't published, or the link is incomplete. Browse the marketplace to find another agent.";

/** 404 'Agent not found': the agent does not exist or this viewer may not see it. */
export function agentNotFound(): never {
  return notFound({ title: 'Agent not found', message: NOT_FOUND_MESSAGE });
}

/** The `:agentId` of an /agent/… URL, lower-cased; anything not uuid-shaped is the 404. */
export function parseAgentId(value: string | undefined): string {
  const result = AgentIdSchema.safeParse(value);
  if (!result.success) agentNotFound();
  return result.data.toLowerCase();
}

const AGENT_COLUMNS =
  'id, name, description, price, category, status, thumbnail_url, images, features, seller_id, seller_username, seller_display_name, avg_rating, review_count, purchase_count';

/**
 * The page's columns of agents_with_stats; those that come from NOT NULL agents columns are never
 * null. `seller_id` is null once the seller deleted their account (a sold agent stays for its buyers).
 */
type AgentRow = Omit<
  WithNonNull<
    Pick<
      Tables<'agents_with_stats'>,
      | 'id'
      | 'name'
      | 'description'
      | 'price'
      | 'category'
      | 'status'
      | 'thumbnail_url'
      | 'images'
      | 'features'
      | 'seller_id'
      | 'seller_username'
      | 'seller_display_name'
      | 'avg_rating'
      | 'review_count'
      | 'purchase_count'
    >,
    'id' | 'name' | 'price' | 'category' | 'status'
  >,
  'status'
> & { status: AgentStatus };

const REVIEW_COLUMNS = `id, buyer_id, rating, review_text, created_at, ${REPLY_EMBED}` as const;

function toAgentDetail(row: AgentRow): AgentDetail {
  const reviewCount = Number(row.review_count ?? 0);
  return {
    ...agentListing(row),
    status: row.status,
    images: galleryImages(row.thumbnail_url, row.images),
    features: (row.features ?? []).filter((feature) => feature.trim() !== ''),
    sellerId: row.seller_id,
    avgRating: reviewCount && row.avg_rating !== null ? Number(row.avg_rating) : null,
    reviewCount,
    purchaseCount: Number(row.purchase_count ?? 0),
  };
}

/** The agent as the viewer may see it, or null when it does not exist or is hidden by RLS. */
export async function getVisibleAgent(supabase: AppSupabaseClient, agentId: string): Promise<AgentDetail | null> {
  const row = unwrap(
    await supabase
      .from('agents_with_stats')
      .select(AGENT_COLUMNS)
      .eq('id', agentId)
      .maybeSingle()
      .overrideTypes<AgentRow, { merge: false }>(),
    failure('agent'),
  );
  return row ? toAgentDetail(row) : null;
}

/**
 * How many reviews gave each rating, counted by the database (`public.agent_rating_counts`): the
 * distribution and the number of review pages, whatever the number of reviews.
 */
export async function listRatingCounts(supabase: AppSupabaseClient, agentId: string): Promise<RatingCount[]> {
  const rows = unwrap(
    await supabase.rpc('agent_rating_counts', { agent: agentId }, { get: true }),
    failure('agent ratings'),
  );
  return rows.map((row) => ({ rating: Number(row.rating), count: Number(row.review_count) }));
}

/** One page of reviews, newest first, with the reviewers' usernames from public_profiles. */
export async function listReviewPage(
  supabase: AppSupabaseClient,
  agentId: string,
  paging: Pick<ReviewPaging, 'from' | 'to'>,
): Promise<AgentReview[]> {
  const data = unwrap(
    await supabase
      .from('reviews')
      .select(REVIEW_COLUMNS)
      .eq('agent_id', agentId)
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .range(paging.from, paging.to),
    failure('agent reviews'),
  );
  if (data.length === 0) return [];

  const reviewerIds = [...new Set(data.map((row) => row.buyer_id))];
  const profiles = unwrap(
    await supabase.from('public_profiles').select('id, username').in('id', reviewerIds),
    failure('reviewer names'),
  );
  const usernames = new Map(profiles.map((profile) => [profile.id, profile.username]));

  return data.map((row) => ({
    id: row.id,
    username: usernames.get(row.buyer_id) ?? 'Former customer',
    rating: Number(row.rating),
    text: row.review_text ?? '',
    createdAt: row.created_at,
    reply: toReply(row.review_replies),
  }));
}

/**
 * The buyer's live purchase of the agent: 'completed' (it is in their collection), 'pending'
 * (the payment is being processed) or null (RLS: buyers read only their own purchases).
 */
export async function livePurchaseStatus(
  supabase: AppSupabaseClient,
  buyerId: string,
  agentId: string,
): Promise<'completed' | 'pending' | null> {
  const rows = unwrap(
    await supabase
      .from('purchases')
      .select('status')
      .eq('buyer_id', buyerId)
      .eq('agent_id', agentId)
      .in('status', ['completed', 'pending'])
      .limit(1),
    failure('ownership'),
  );
  const status = rows[0]?.status;
  return status === 'completed' || status === 'pending' ? status : null;
}

/** Whether the buyer holds a completed purchase of the agent. */
export async function ownsAgent(supabase: AppSupabaseClient, buyerId: string, agentId: string): Promise<boolean> {
  return (await livePurchaseStatus(supabase, buyerId, agentId)) === 'completed';
}

export interface AgentPageData {
  agent: AgentDetail;
  /** Reviews per rating given (see ratingDistribution). */
  ratingCounts: RatingCount[];
  reviews: AgentReview[];
  paging: ReviewPaging;
  owned: boolean;
  /** A purchase of the agent by the viewer is waiting for its payment. */
  pending: boolean;
}

/**
 * The whole page in one round of parallel queries: the agent, its rating counts, the requested page
 * of reviews and (signed in) ownership. A page past the end costs one more query for the last
 * page. Returns null when the agent is not visible to this viewer.
 */
export async function loadAgentPage(
  supabase: AppSupabaseClient,
  { agentId, viewerId, requestedPage }: { agentId: string; viewerId: string | null; requestedPage: number },
): Promise<AgentPageData | null> {
  const requested = reviewPaging(requestedPage, Number.MAX_SAFE_INTEGER, REVIEWS_PER_PAGE);
  const [agent, ratingCounts, firstTry, purchase] = await Promise.all([
    getVisibleAgent(supabase, agentId),
    listRatingCounts(supabase, agentId),
    listReviewPage(supabase, agentId, requested),
    viewerId ? livePurchaseStatus(supabase, viewerId, agentId) : Promise.resolve(null),
  ]);
  if (!agent) return null;

  const paging = reviewPaging(requestedPage, ratedReviewCount(ratingCounts), REVIEWS_PER_PAGE);
  const reviews = paging.page === requested.page ? firstTry : await listReviewPage(supabase, agentId, paging);
  return { agent, ratingCounts, reviews, paging, owned: purchase === 'completed', pending: purchase === 'pending' };
}

/**
 * The page as `viewer` sees it. A published agent's page is the same for everyone, so it is read
 * through the anonymous client and shared between requests for a few seconds; only ownership is
 * the viewer's own. What anon cannot see (a seller's draft, an archived agent its buyer owns, an
 * admin's view) is read with the viewer's client, uncached.
 */
export async function loadAgentPageFor(
  { publicClient, viewerClient }: { publicClient: AppSupabaseClient; viewerClient: AppSupabaseClient },
  { agentId, viewerId, requestedPage }: { agentId: string; viewerId: string | null; requestedPage: number },
): Promise<AgentPageData | null> {
  const [shared, purchase] = await Promise.all([
    sharedCatalogueRead(`agent:${agentId}:${requestedPage}`, () =>
      loadAgentPage(publicClient, { agentId, viewerId: null, requestedPage }),
    ),
    viewerId ? livePurchaseStatus(viewerClient, viewerId, agentId) : null,
  ]);
  if (!shared && !viewerId) return null;
  const page = shared ?? (await loadAgentPage(viewerClient, { agentId, viewerId: null, requestedPage }));
  return page && { ...page, owned: purchase === 'completed', pending: purchase === 'pending' };
}

/** What this viewer may see of the agent's seller (public_profiles applies the privacy settings). */
export interface AgentSeller {
  /** Whether the viewer may open the seller's profile (their storefront). */
  visible: boolean;
  pictureUrl: string | null;
  /** Only when the seller shows it (show_email / show_phone) to a viewer who may see the profile. */
  email: string | null;
  phone: string | null;
}

/**
 * The seller's profile as the viewer sees it, read with the viewer's client (never shared);
 * nothing to see when the seller deleted their account (`sellerId` null).
 */
async function getAgentSeller(viewerClient: AppSupabaseClient, sellerId: string | null): Promise<AgentSeller> {
  if (!sellerId) return { visible: false, pictureUrl: null, email: null, phone: null };
  const row = unwrap(
    await viewerClient
      .from('public_profiles')
      .select('visible, profile_image_url, email, phone')
      .eq('id', sellerId)
      .maybeSingle(),
    failure('seller'),
  );
  return {
    visible: row?.visible ?? false,
    pictureUrl: row?.profile_image_url ?? null,
    email: row?.email?.trim() || null,
    phone: row?.phone?.trim() || null,
  };
}

/**
 * The seller as this viewer sees them. What a visitor (signed out) may see of a profile is the
 * same for every visitor, so theirs is shared between requests like the catalogue (a change to
 * the profile or its privacy settings clears it at once); a signed-in viewer's is their own read.
 */
export function getAgentSellerFor(
  { publicClient, viewerClient }: { publicClient: AppSupabaseClient; viewerClient: AppSupabaseClient },
  { sellerId, viewerId }: { sellerId: string | null; viewerId: string | null },
): Promise<AgentSeller> {
  if (viewerId || !sellerId) return getAgentSeller(viewerClient, sellerId);
  return sharedCatalogueRead(`seller:${sellerId}`, () => getAgentSeller(publicClient, sellerId));
}

export interface ChangelogEntry {
  version: string;
  releaseNotes: string;
  createdAt: string;
}

/**
 * The agent's versions, newest first (`public.agent_changelog`: release notes and dates are
 * public to whoever may see the agent; file paths stay with buyers, the seller and admins).
 */
export async function listChangelog(supabase: AppSupabaseClient, agentId: string): Promise<ChangelogEntry[]> {
  const rows = unwrap(await supabase.rpc('agent_changelog', { target_agent_id: agentId }), failure('changelog'));
  return rows.map((row) => ({ version: row.version, releaseNotes: row.release_notes, createdAt: row.created_at }));
}

/**
 * The changelog as a visitor sees it (a published agent's: the same for everyone), shared
 * between requests; a new version clears it at once (agent_versions is a catalogue table).
 */
export function listPublicChangelog(publicClient: AppSupabaseClient, agentId: string): Promise<ChangelogEntry[]> {
  return sharedCatalogueRead(`changelog:${agentId}`, () => listChangelog(publicClient, agentId));
}

/**
 * A version's package never changes (a new package is a new version), so what is inside it is
 * read once and kept: an hour, the 200 most recently shown. An unreadable file is not kept.
 */
const insides = createTtlCache<PackageInside | null>({ ttlMs: 60 * 60_000, maxEntries: 200 });

/**
 * What is inside a version of the agent (its tools, model family and first example
 * conversation), read from the package's manifest in the private bucket as the service role,
 * never its instructions or README (app/lib/agent-package.ts `packageInside`). The caller has
 * already established that the viewer may see the agent. Null when there is no version, no
 * service role, no manifest (a ZIP without agent.json) or an invalid one, or the file cannot be
 * read: the page then shows no such section.
 */
export async function readPackageInside(
  connection: SupabaseConnection,
  agentId: string,
  version: string | undefined,
): Promise<PackageInside | null> {
  if (!version || !connection.serviceRoleKey) return null;
  try {
    return await insides.get(`${agentId}@${version}`, async () => {
      const service = createServiceSupabase(connection);
      const row = unwrap(
        await service
          .from('agent_versions')
          .select('id, agent_id, version, file_path, file_name, content_type')
          .eq('agent_id', agentId)
          .eq('version', version)
          .maybeSingle(),
        'package version',
      );
      if (!row) return null;
      const bytes = await readPackageFile(service, row);
      if (!bytes) throw new Error(`Package of ${agentId} ${version} not readable`);
      const kind = detectPackageKind(bytes);
      const read = kind ? readAgentPackage(bytes, kind) : null;
      return read?.ok ? packageInside(read.manifest) : null;
    });
  } catch {
    return null;
  }
}

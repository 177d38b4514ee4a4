/**
 * Sellers: a buyer becomes a seller through trusted code, and a seller's public
 * storefront is read. The account type is read-only for its owner in the database
 * (`guard_user_profile`), so the upgrade runs as the service role, only after the route's checks
 * (signed in, a buyer, a valid form). The role is read from `public.users` on every verified
 * request (viewer.server.ts), so forgetting the cached viewer is all a session needs.
 */
import { acceptPolicies, currentPolicies } from '~/server/policies.server';
import { refusesAuthorityName } from '~/lib/auth-rules';
import { toAgentSummary, type AgentSummary, type AgentSummaryRow } from '~/lib/agents';
import { PAGE_SIZE } from '~/lib/marketplace-params';
import { sellerName, toProfileVisibility, type ProfileVisibility } from '~/lib/sellers';
import type { BecomeSellerForm } from '~/schemas/seller';
import { catalogueFailure, forgetCatalogue, publishedSummaries, sharedCatalogueRead } from '~/server/agents.server';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { forgetViewer } from '~/server/viewer.server';

export type BecomeSellerResult = { ok: true } | { ok: false; reason: 'already-seller' | 'authority-name' };

/**
 * Makes the buyer `userId` a seller with the form's details and the moment the terms were
 * accepted. `service` is the service-role client. Only a buyer's row changes (a concurrent
 * upgrade or an admin's change wins); the session sees the new role on its next request.
 */
export async function becomeSeller(
  service: AppSupabaseClient,
  userId: string,
  form: Pick<BecomeSellerForm, 'displayName' | 'pitch' | 'responseTimeHours'>,
): Promise<BecomeSellerResult> {
  const now = new Date().toISOString();
  const answer = await service
    .from('users')
    .update({
      user_type: 'seller',
      display_name: form.displayName,
      seller_pitch: form.pitch,
      response_time_hours: form.responseTimeHours,
      seller_terms_accepted_at: now,
      updated_at: now,
    })
    .eq('id', userId)
    .eq('user_type', 'buyer')
    .select('id');
  if (refusesAuthorityName(answer.error)) return { ok: false, reason: 'authority-name' };
  const rows = unwrap(answer, 'becoming a seller');
  if (rows.length === 1) {
    // Accepting the seller terms is accepting the Seller Policy in force (ADR 069).
    const sellerPolicy = (await currentPolicies(service)).seller;
    if (sellerPolicy) await acceptPolicies(service, userId, [{ document: 'seller', version: sellerPolicy.version }]);
  }
  forgetViewer(userId);
  // A storefront read while the user was still a buyer (a 404) must not outlive the change.
  forgetCatalogue();
  return rows.length === 1 ? { ok: true } : { ok: false, reason: 'already-seller' };
}

export interface SellerProfile {
  id: string;
  username: string;
  /** The display name, else the username. */
  name: string;
  pitch: string | null;
  /** The profile picture, when set (public_profiles gives it to those who may see the profile). */
  pictureUrl: string | null;
  /** Only when the seller shows them (show_email / show_phone). */
  email: string | null;
  phone: string | null;
  memberSince: string;
}

export interface StorefrontFigures {
  agentCount: number;
  totalSales: number;
  reviewCount: number;
  /** Weighted by each agent's reviews; null before the first review. */
  avgRating: number | null;
}

export interface Storefront {
  kind: 'shown';
  seller: SellerProfile;
  figures: StorefrontFigures;
  /** One page of the seller's published agents, newest first, as the marketplace pages them. */
  agents: AgentSummary[];
}

/** A seller whose profile this viewer may not see: only the username and why. */
export interface HiddenStorefront {
  kind: 'hidden';
  username: string;
  visibility: Exclude<ProfileVisibility, 'public'>;
}

/**
 * The storefront of `username` as this viewer may see it, page `page` of their agents; null for
 * an unknown user or one who is not a seller (or administrator with a shop). The profile is read
 * with the viewer's client, so `public_profiles` applies the seller's privacy (members only:
 * signed-in viewers; private: the seller alone) and a hidden profile is `kind: 'hidden'`. The
 * figures and agents are the same for everyone: read anonymously and shared for a few seconds,
 * like the catalogue.
 */
export async function getStorefront(
  { publicClient, viewerClient }: { publicClient: AppSupabaseClient; viewerClient: AppSupabaseClient },
  username: string,
  page: number,
): Promise<Storefront | HiddenStorefront | null> {
  const profile = unwrap(
    await viewerClient
      .from('public_profiles')
      .select(
        'id, username, user_type, created_at, display_name, seller_pitch, profile_image_url, email, phone, visibility, visible',
      )
      .eq('username', username)
      .maybeSingle(),
    catalogueFailure('seller profile'),
  );
  // public_profiles names an account's role only as 'seller' (anyone with a shop).
  if (!profile?.id || !profile.username || profile.user_type !== 'seller') return null;
  const visibility = toProfileVisibility(profile.visibility);
  if (!profile.visible && visibility !== 'public') return { kind: 'hidden', username: profile.username, visibility };
  if (!profile.created_at) return null;

  const { figures, agents } = await sharedCatalogueRead(`storefront:${JSON.stringify([profile.id, page])}`, () =>
    loadStorefrontAgents(publicClient, profile.id!, page),
  );
  return {
    kind: 'shown',
    seller: {
      id: profile.id,
      username: profile.username,
      name: sellerName(profile.username, profile.display_name),
      pitch: profile.seller_pitch,
      pictureUrl: profile.profile_image_url,
      email: profile.email?.trim() || null,
      phone: profile.phone?.trim() || null,
      memberSince: profile.created_at,
    },
    figures,
    agents,
  };
}

async function loadStorefrontAgents(
  supabase: AppSupabaseClient,
  sellerId: string,
  page: number,
): Promise<Pick<Storefront, 'figures' | 'agents'>> {
  const from = (page - 1) * PAGE_SIZE;
  const [figureRows, agentResult] = await Promise.all([
    supabase.rpc('seller_storefront_figures', { seller: sellerId }, { get: true }),
    publishedSummaries(supabase)
      .eq('seller_id', sellerId)
      .order('created_at', { ascending: false })
      .order('id', { ascending: true })
      .range(from, from + PAGE_SIZE - 1)
      .overrideTypes<AgentSummaryRow[], { merge: false }>(),
  ]);
  const figures = unwrap(figureRows, catalogueFailure('seller figures'))[0];
  // Past the last page a Data API may answer 416 (PGRST103): an empty page, not an error.
  const agents = agentResult.error?.code === 'PGRST103' ? [] : unwrap(agentResult, catalogueFailure('seller agents'));
  return { figures: toFigures(figures), agents: agents.map(toAgentSummary) };
}

interface FigureRow {
  agent_count: number | string;
  total_sales: number | string;
  review_count: number | string;
  avg_rating: number | string | null;
}

export function toFigures(row: FigureRow | undefined): StorefrontFigures {
  if (!row) return { agentCount: 0, totalSales: 0, reviewCount: 0, avgRating: null };
  return {
    agentCount: Number(row.agent_count),
    totalSales: Number(row.total_sales),
    reviewCount: Number(row.review_count),
    avgRating: row.avg_rating === null ? null : Number(row.avg_rating),
  };
}

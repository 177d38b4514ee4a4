/**
 * A buyer's own rating and review of an agent, written through the viewer's client: the row-level
 * security policies ('reviews: author inserts/updates') and the trigger `public.guard_review`
 * (a completed purchase, SQLSTATE PT403) decide as well as the action's check.
 */
import { forgetCatalogue } from '~/server/agents.server';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export interface OwnReview {
  rating: number;
  text: string;
}

const UNAVAILABLE = 'We could not save your rating right now. Please try again in a moment.';

/** The viewer's review of the agent, or null before they rated it. */
export async function getOwnReview(
  supabase: AppSupabaseClient,
  buyerId: string,
  agentId: string,
): Promise<OwnReview | null> {
  const row = unwrap(
    await supabase
      .from('reviews')
      .select('rating, review_text')
      .eq('agent_id', agentId)
      .eq('buyer_id', buyerId)
      .maybeSingle(),
    'own review',
  );
  return row ? { rating: Number(row.rating), text: row.review_text ?? '' } : null;
}

export type SaveReviewOutcome = { ok: true } | { ok: false; refusal: 'not-buyer' };

/**
 * Creates the review or edits the existing one (one per buyer and agent: the unique key), then
 * forgets the shared catalogue reads so the agent page and the marketplace show the new average
 * at once. The database's refusal of a non-buyer comes back as `not-buyer`; any other failure is a 503.
 */
export async function saveReview(
  supabase: AppSupabaseClient,
  input: { buyerId: string; agentId: string; rating: number; review: string | null },
): Promise<SaveReviewOutcome> {
  const result = await supabase
    .from('reviews')
    .upsert(
      { agent_id: input.agentId, buyer_id: input.buyerId, rating: input.rating, review_text: input.review },
      { onConflict: 'agent_id,buyer_id' },
    );
  if (result.error?.code === 'PT403') return { ok: false, refusal: 'not-buyer' };
  unwrap(result, { what: 'save review', unavailable: UNAVAILABLE });
  forgetCatalogue();
  return { ok: true };
}

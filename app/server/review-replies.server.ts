/**
 * /dashboard/reviews: the reviews of the seller's agents, newest first, each with the seller's one
 * public reply, and the action that writes, edits or deletes that reply. Everything goes through
 * the viewer's own client: row-level security on public.review_replies (migration
 * 20261127000200, `public.is_review_seller`) lets only the reviewed agent's seller write, so the
 * action's own check (the same function) and the database agree; a forged form for another
 * seller's review is a 404 and changes nothing.
 */
import { supabaseContext } from '~/context';
import { hrefWith } from '~/lib/href-with';
import { REPLY_MESSAGES, ReplyActionSchema } from '~/schemas/review-reply';
import { reviewPage, type ReviewColumns, type ReviewRow } from '~/server/moderation.server';
import { pageOf, type Page } from '~/server/paged-lists.server';
import { forgetCatalogue } from '~/server/agents.server';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection, type GuardArgs } from '~/server/guards.server';
import { unavailableMessage, unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export interface SellerReviewRow extends ReviewRow {
  reply: ReviewReply | null;
}

export interface ReviewReply {
  text: string;
  createdAt: string;
  updatedAt: string;
}

type ReplyRecord = { reply_text: string; created_at: string; updated_at: string };

/** The embedded reply (one-to-one: an object or null) as the pages show it. */
export function toReply(record: ReplyRecord | ReplyRecord[] | null | undefined): ReviewReply | null {
  const row = Array.isArray(record) ? record[0] : record;
  return row ? { text: row.reply_text, createdAt: row.created_at, updatedAt: row.updated_at } : null;
}

/** Read with each review: its reply, if the seller wrote one. */
export const REPLY_EMBED = 'review_replies(reply_text, created_at, updated_at)' as const;

/**
 * One page of the reviews of the seller's agents (every status), newest first. The database
 * picks them: an inner embed of the reviewed agent filtered on its seller (`agents!inner(name)`,
 * `agents.seller_id=eq.…`), so no list of the seller's agent ids travels in the URL (past a few
 * hundred agents too long for an HTTP server, past 1,000 cut by the Data API's row limit).
 */
export async function listSellerReviews(
  client: AppSupabaseClient,
  { sellerId, page }: { sellerId: string; page: number },
): Promise<Page<SellerReviewRow>> {
  const result = await pageOf(
    page,
    (from, to) =>
      client
        .from('reviews')
        .select(`id, agent_id, buyer_id, rating, review_text, created_at, agents!inner(name), ${REPLY_EMBED}`, {
          count: 'exact',
        })
        .eq('agents.seller_id', sellerId)
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(from, to)
        .overrideTypes<ReviewRecord[], { merge: false }>(),
    'reviews of your agents',
  );
  return reviewPage(client, result, {
    agentName: (row) => row.agents?.name,
    unknownAuthor: 'Former customer',
    extra: (row) => ({ reply: toReply(row.review_replies) }),
  });
}

interface ReviewRecord extends ReviewColumns {
  agents: { name: string } | null;
  review_replies: ReplyRecord | ReplyRecord[] | null;
}

export type ReplyOutcome = { ok: true; message: string } | { ok: false; status: 404; message: string };

/**
 * Writes (creates or edits) or deletes the reply to `reviewId` as the signed-in seller. Not the
 * seller of the reviewed agent (or no such review): 404, nothing changes. The database refuses
 * the same writes whatever code asks.
 */
export async function changeReply(
  client: AppSupabaseClient,
  change: { intent: 'save'; reviewId: string; reply: string } | { intent: 'delete'; reviewId: string },
): Promise<ReplyOutcome> {
  const mine = unwrap(await client.rpc('is_review_seller', { target_review_id: change.reviewId }), 'review ownership');
  if (!mine) return { ok: false, status: 404, message: REPLY_MESSAGES.notYours };
  if (change.intent === 'save') {
    unwrap(
      await client
        .from('review_replies')
        .upsert({ review_id: change.reviewId, reply_text: change.reply }, { onConflict: 'review_id' }),
      'save reply',
    );
    forgetCatalogue();
    return { ok: true, message: REPLY_MESSAGES.saved };
  }
  const deleted = unwrap(
    await client.from('review_replies').delete().eq('review_id', change.reviewId).select('review_id'),
    'delete reply',
  );
  if (deleted.length === 0) return { ok: false, status: 404, message: REPLY_MESSAGES.nothingToDelete };
  forgetCatalogue();
  return { ok: true, message: REPLY_MESSAGES.deleted };
}

/** The reply form's action: validate, change through the viewer's client, redirect with a flash. */
export async function replyAction(args: GuardArgs & { request: Request; pattern: string }) {
  requireSection(args);
  const client = args.context.get(supabaseContext);
  const submission = parseForm(await args.request.formData(), ReplyActionSchema);
  if (submission.status !== 'success') return formError(submission);
  let outcome: ReplyOutcome;
  try {
    outcome = await changeReply(client, submission.value);
  } catch (thrown) {
    const message = unavailableMessage(thrown);
    if (!message) throw thrown;
    return formError(submission, { message, status: 503 });
  }
  if (!outcome.ok) return formError(submission, { message: outcome.message, status: outcome.status });
  return redirectWithFlash(args.request, hrefWith(args.url.pathname, args.url.search, { reply: null }), {
    kind: 'success',
    message: outcome.message,
  });
}

/**
 * /dashboard/moderation: the agents an admin may moderate, the reviews, and the changes:
 * unpublish or restore an agent, remove a review. Each change is one database function that also
 * writes its audit row (app/server/admin.server.ts); the database refuses publishing a moderated
 * agent whatever code asks.
 */
import { connectionContext } from '~/context';
import { DELETED_ACCOUNT } from '~/lib/dashboard-format';
import { ADMIN_MESSAGES, ModerationActionSchema, type ModerationAction } from '~/schemas/admin';
import { formError, parseForm } from '~/server/forms.server';
import { forgetCatalogue } from '~/server/agents.server';
import { requireSection } from '~/server/guards.server';
import { unwrap } from '~/server/http-errors.server';
import { containsPattern } from '~/server/sales.server';
import { createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import { answer, callAdminFunction, type ActionArgs } from '~/server/admin.server';
import { pageOf, usernames, type Page } from '~/server/paged-lists.server';

export interface ModeratedAgentRow {
  id: string;
  name: string;
  seller: string;
  status: string;
  moderationReason: string | null;
  sellerBanned: boolean;
}

/** Published agents and agents unpublished by a moderator, matching `search` in the name. */
export async function listModeratableAgents(
  client: AppSupabaseClient,
  { search, page }: { search: string; page: number },
): Promise<Page<ModeratedAgentRow>> {
  const result = await pageOf(
    page,
    (from, to) => {
      let query = client
        .from('agents')
        .select('id, name, seller_id, status, moderation_reason, seller_banned', { count: 'exact' })
        .or('status.eq.published,moderation_reason.not.is.null');
      if (search) query = query.ilike('name', containsPattern(search));
      return query.order('name').order('id').range(from, to);
    },
    'agents to moderate',
  );
  const sellers = await usernames(
    client,
    result.rows.flatMap((row) => (row.seller_id ? [row.seller_id] : [])),
  );
  return {
    ...result,
    rows: result.rows.map((row) => ({
      id: row.id,
      name: row.name,
      seller: (row.seller_id && sellers.get(row.seller_id)) || DELETED_ACCOUNT,
      status: row.status,
      moderationReason: row.moderation_reason,
      sellerBanned: row.seller_banned,
    })),
  };
}

export interface ReviewRow {
  id: string;
  agentId: string;
  agentName: string;
  author: string;
  rating: number;
  text: string | null;
  createdAt: string;
}

/** A review's columns as the review lists read them (their selects are built, so typed here). */
export interface ReviewColumns {
  id: string;
  agent_id: string;
  buyer_id: string;
  rating: number;
  review_text: string | null;
  created_at: string;
}

/** A review as listReviews reads it: with its agent embedded, or review_search's agent_name. */
interface ReviewRecord extends ReviewColumns {
  agents?: { name: string } | null;
  agent_name?: string | null;
}

/**
 * Reviews, newest first, whose text or agent name contains `search`: a search is
 * public.review_search's (security invoker), so the database picks the matches however many
 * agents match.
 */
export async function listReviews(
  client: AppSupabaseClient,
  { search, page }: { search: string; page: number },
): Promise<Page<ReviewRow>> {
  const result = await pageOf(
    page,
    (from, to) =>
      (search
        ? client
            .rpc('review_search', { search }, { count: 'exact', get: true })
            .select('id, agent_id, buyer_id, rating, review_text, created_at, agent_name')
        : client
            .from('reviews')
            .select('id, agent_id, buyer_id, rating, review_text, created_at, agents(name)', { count: 'exact' })
      )
        .order('created_at', { ascending: false })
        .order('id')
        .range(from, to)
        .overrideTypes<ReviewRecord[], { merge: false }>(),
    'reviews',
  );
  return reviewPage(client, result, {
    agentName: (row) => row.agents?.name ?? row.agent_name,
    unknownAuthor: 'Unknown buyer',
  });
}

/**
 * A page of review records as the review lists show them: each with its agent's name ('Unknown
 * agent' when gone), its author's username (`unknownAuthor` for an account that is gone) and
 * whatever `extra` adds.
 */
export async function reviewPage<Row extends ReviewColumns, Extra extends object = object>(
  client: AppSupabaseClient,
  result: Page<Row>,
  shown: { agentName: (row: Row) => string | null | undefined; unknownAuthor: string; extra?: (row: Row) => Extra },
): Promise<Page<ReviewRow & Extra>> {
  const authors = await usernames(
    client,
    result.rows.map((row) => row.buyer_id),
  );
  return {
    ...result,
    rows: result.rows.map((row) => ({
      id: row.id,
      agentId: row.agent_id,
      agentName: shown.agentName(row) ?? 'Unknown agent',
      author: authors.get(row.buyer_id) ?? shown.unknownAuthor,
      rating: Number(row.rating),
      text: row.review_text,
      createdAt: row.created_at,
      ...(shown.extra?.(row) as Extra),
    })),
  };
}

async function applyModeration(service: AppSupabaseClient, actor: string, change: ModerationAction) {
  if (change.intent === 'remove-review') {
    await callAdminFunction(
      service,
      (db) => db.rpc('admin_remove_review', { actor, target: change.reviewId, reason: change.reason }),
      ADMIN_MESSAGES.reviewNotFound,
    );
    forgetCatalogue(); // the agent's rating
    return ADMIN_MESSAGES.reviewRemoved;
  }
  const unpublish = change.intent === 'unpublish';
  await callAdminFunction(
    service,
    (db) => db.rpc('admin_moderate_agent', { actor, target: change.agentId, unpublish, reason: change.reason }),
    ADMIN_MESSAGES.agentNotFound,
  );
  forgetCatalogue();
  const agent = unwrap(
    await service.from('agents').select('name').eq('id', change.agentId).maybeSingle(),
    'moderated agent',
  );
  const name = agent?.name ?? 'The agent';
  return unpublish ? ADMIN_MESSAGES.unpublished(name) : ADMIN_MESSAGES.restored(name);
}

/** The action of /dashboard/moderation: unpublish or restore an agent, remove a review. */
export async function moderationAction(args: ActionArgs) {
  const { viewer } = requireSection(args);
  const submission = parseForm(await args.request.formData(), ModerationActionSchema);
  if (submission.status !== 'success') return formError(submission);
  const change = submission.value;
  const openParam = change.intent === 'remove-review' ? 'review' : 'moderate';
  return answer(args, submission, openParam, () =>
    applyModeration(createServiceSupabase(args.context.get(connectionContext)), viewer.id, change),
  );
}

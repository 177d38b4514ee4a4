/**
 * The admin tools of /dashboard/users and /dashboard/moderation: the lists (read through the
 * viewer's own client, so row-level security decides what an admin sees), the audit log, and the
 * changes. Every change runs after the section's guard, through the service role, as one
 * database function that also writes its audit row (migration 20261126000300); the database
 * refuses a self-demotion, the last admin's demotion or ban, and publishing a moderated agent
 * whatever code asks. A ban also goes to the Auth service, which refuses the user's sign-in and
 * ends their sessions; the viewer cache forgets the user, so a new role or a ban counts at once.
 */
import type { PostgrestError } from '@supabase/supabase-js';
import { connectionContext } from '~/context';
import { DELETED_ACCOUNT } from '~/lib/dashboard-format';
import { ROLE_LABEL, type Role } from '~/lib/permissions';
import {
  ADMIN_MESSAGES,
  MAX_ADMIN_SEARCH,
  ModerationActionSchema,
  UserActionSchema,
  type ModerationAction,
  type UserAction,
} from '~/schemas/admin';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { forgetCatalogue } from '~/server/agents.server';
import { requireSection, type GuardArgs } from '~/server/guards.server';
import { unavailableMessage, unwrap, type UnwrapOptions } from '~/server/http-errors.server';
import { containsPattern } from '~/server/sales.server';
import { createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import { forgetViewer } from '~/server/viewer.server';
import { pageCount } from '~/lib/pagination';

export const ADMIN_PAGE_SIZE = 25;
export const AUDIT_ENTRIES = 20;
/** How long a ban lasts in the Auth service: a hundred years, i.e. until an admin lifts it. */
const BAN_DURATION = '876000h';

export interface Page<T> {
  rows: T[];
  page: number;
  pageCount: number;
  total: number;
}

/** A search term for the Data API's `or=(…)` filters: only the characters names and emails use. */
export function adminSearch(value: string | null): string {
  return (value ?? '')
    .replace(/[^A-Za-z0-9_@.+ -]/g, '')
    .trim()
    .slice(0, MAX_ADMIN_SEARCH);
}

type Counted<T> = { data: T[] | null; error: PostgrestError | null; count: number | null };

/**
 * One page of `size` rows of a counted query, `page` clamped to the last page (past it PostgREST
 * answers 416, PGRST103). `what`: `unwrap`'s label or options (the 503's message).
 */
export async function pageOf<T>(
  page: number,
  query: (from: number, to: number) => PromiseLike<Counted<T>>,
  what: UnwrapOptions | string,
  size = ADMIN_PAGE_SIZE,
) {
  const from = (page - 1) * size;
  let result = await query(from, from + size - 1);
  let current = page;
  if (result.error?.code === 'PGRST103' && page > 1) {
    const total = (await query(0, 0)).count ?? 0;
    current = pageCount(total, size);
    const start = (current - 1) * size;
    result = await query(start, start + size - 1);
  }
  const rows = unwrap(result as { data: T[]; error: null } | { data: null; error: PostgrestError }, what);
  const total = result.count ?? rows.length;
  return { rows, page: current, pageCount: pageCount(total, size), total };
}

/** Usernames by id (public profiles), for the lists and the audit log. */
export async function usernames(client: AppSupabaseClient, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  const names = new Map<string, string>();
  // 200 ids per request keep the `in.(…)` filter well inside a URL's length.
  for (let start = 0; start < wanted.length; start += 200) {
    const batch = wanted.slice(start, start + 200);
    const rows = unwrap(await client.from('public_profiles').select('id, username').in('id', batch), 'usernames');
    for (const row of rows) if (row.id && row.username) names.set(row.id, row.username);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

export interface AdminUserRow {
  id: string;
  username: string;
  email: string | null;
  role: Role;
  createdAt: string;
  purchases: number;
  bannedAt: string | null;
  banReason: string | null;
}

export async function listUsers(
  client: AppSupabaseClient,
  { search, page }: { search: string; page: number },
): Promise<Page<AdminUserRow>> {
  const result = await pageOf(
    page,
    (from, to) => {
      let query = client
        .from('admin_user_list')
        .select('id, username, email, user_type, created_at, purchase_count, banned_at, ban_reason', {
          count: 'exact',
        });
      if (search) {
        const pattern = containsPattern(search);
        query = query.or(`username.ilike.${pattern},email.ilike.${pattern}`);
      }
      return query.order('created_at', { ascending: false }).order('id').range(from, to);
    },
    'users',
  );
  return {
    ...result,
    rows: result.rows.map((row) => ({
      id: row.id!,
      username: row.username ?? '',
      email: row.email,
      role: (row.user_type ?? 'buyer') as Role,
      createdAt: row.created_at!,
      purchases: Number(row.purchase_count ?? 0),
      bannedAt: row.banned_at,
      banReason: row.ban_reason,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// The audit log
// ---------------------------------------------------------------------------------------------

export type AuditTarget = 'user' | 'agent' | 'review';

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  /** What the action was done to, in words ('demo_buyer', 'Invoice Autopilot', 'a review of …'). */
  target: string;
  targetType: AuditTarget;
  reason: string | null;
  /** 'buyer → seller' for a role change. */
  change: string | null;
  createdAt: string;
}

const ACTION_LABEL: Record<string, string> = {
  'user.role_changed': 'changed the role of',
  'user.banned': 'banned',
  'user.unbanned': 'unbanned',
  'agent.unpublished': 'unpublished',
  'agent.restored': 'restored',
  'review.removed': 'removed',
};

function text(details: unknown, key: string): string | null {
  const value = details && typeof details === 'object' ? (details as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : null;
}

/** The latest audit entries (admins only, by row-level security), of some target types. */
export async function listAudit(client: AppSupabaseClient, targetTypes: AuditTarget[]): Promise<AuditEntry[]> {
  const rows = unwrap(
    await client
      .from('audit_log')
      .select('id, actor_id, action, target_type, target_id, reason, details, created_at')
      .in('target_type', targetTypes)
      .order('created_at', { ascending: false })
      .order('id')
      .limit(AUDIT_ENTRIES),
    'audit log',
  );
  const names = await usernames(client, [
    ...rows.map((row) => row.actor_id),
    ...rows.filter((row) => row.target_type === 'user').map((row) => row.target_id),
  ]);
  return rows.map((row) => {
    const from = text(row.details, 'from');
    const to = text(row.details, 'to');
    let target = names.get(row.target_id) ?? 'a deleted user';
    if (row.target_type === 'agent') target = text(row.details, 'name') ?? 'an agent';
    if (row.target_type === 'review') target = `a review of ${text(row.details, 'agent_name') ?? 'an agent'}`;
    return {
      id: row.id,
      actor: (row.actor_id && names.get(row.actor_id)) ?? 'a deleted user',
      action: ACTION_LABEL[row.action] ?? row.action,
      target,
      targetType: row.target_type as AuditTarget,
      reason: row.reason,
      change: from && to ? `${ROLE_LABEL[from as Role] ?? from} → ${ROLE_LABEL[to as Role] ?? to}` : null,
      createdAt: row.created_at,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Moderation lists
// ---------------------------------------------------------------------------------------------

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
  const authors = await usernames(
    client,
    result.rows.map((row) => row.buyer_id),
  );
  return {
    ...result,
    rows: result.rows.map((row) => ({
      id: row.id,
      agentId: row.agent_id,
      agentName: row.agents?.name ?? row.agent_name ?? 'Unknown agent',
      author: authors.get(row.buyer_id) ?? 'Unknown buyer',
      rating: row.rating,
      text: row.review_text,
      createdAt: row.created_at,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Changes
// ---------------------------------------------------------------------------------------------

type ActionArgs = GuardArgs & { request: Request; pattern: string };

/** The page's own URL without the open form's parameter: where the list shows the result. */
function listUrl(url: URL, openParam: string): string {
  const params = new URLSearchParams(url.search);
  params.delete(openParam);
  const search = params.toString();
  return `${url.pathname}${search ? `?${search}` : ''}`;
}

/** The database's refusals (migration 20261126000300), by their hint, as messages and statuses. */
const DATABASE_REFUSALS: Record<string, { message: string; status: number }> = {
  own_account: { message: ADMIN_MESSAGES.ownAccount, status: 403 },
  last_admin: { message: ADMIN_MESSAGES.lastAdmin, status: 409 },
  not_published: { message: ADMIN_MESSAGES.notPublished, status: 409 },
  not_moderated: { message: ADMIN_MESSAGES.notModerated, status: 409 },
};

class Refusal extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Runs an admin database function; a refusal becomes a `Refusal`, anything else is thrown. */
async function callAdminFunction(
  service: AppSupabaseClient,
  call: (service: AppSupabaseClient) => PromiseLike<{ error: PostgrestError | null }>,
  notFoundMessage: string,
) {
  const { error } = await call(service);
  if (!error) return;
  const refusal = DATABASE_REFUSALS[error.hint ?? ''];
  if (refusal) throw new Refusal(refusal.message, refusal.status);
  if (error.code === 'PT404') throw new Refusal(notFoundMessage, 404);
  unwrap({ data: null, error }, 'admin change');
}

/**
 * What the action checks before the database does: the user exists and is not the admin's own
 * account. The last administrator is the database's rule alone (its refusal maps to
 * ADMIN_MESSAGES.lastAdmin through DATABASE_REFUSALS).
 */
async function checkUserChange(service: AppSupabaseClient, viewerId: string, change: UserAction) {
  const target = unwrap(
    await service.from('users').select('id, username').eq('id', change.userId).maybeSingle(),
    'user to change',
  );
  if (!target) throw new Refusal(ADMIN_MESSAGES.userNotFound, 404);
  if (target.id === viewerId) throw new Refusal(ADMIN_MESSAGES.ownAccount, 403);
  return target;
}

async function applyUserChange(service: AppSupabaseClient, actor: string, change: UserAction, username: string) {
  const { userId, reason } = change;
  if (change.intent === 'role') {
    await callAdminFunction(
      service,
      (db) => db.rpc('admin_change_role', { actor, target: userId, new_role: change.role, reason }),
      ADMIN_MESSAGES.userNotFound,
    );
    return ADMIN_MESSAGES.roleChanged(username, ROLE_LABEL[change.role]);
  }
  const banned = change.intent === 'ban';
  // The database first: if it refuses (the last admin), the Auth service is left as it was.
  await callAdminFunction(
    service,
    (db) => db.rpc('admin_set_ban', { actor, target: userId, banned, reason }),
    ADMIN_MESSAGES.userNotFound,
  );
  const { error } = await service.auth.admin.updateUserById(userId, { ban_duration: banned ? BAN_DURATION : 'none' });
  if (error) throw error;
  forgetCatalogue(); // the seller's listings leave (or come back to) the marketplace at once
  return banned ? ADMIN_MESSAGES.banned(username) : ADMIN_MESSAGES.unbanned(username);
}

/** A refusal or an outage is a message above the form; success redirects with a flash. */
async function answer(
  args: ActionArgs,
  submission: Parameters<typeof formError>[0],
  openParam: string,
  work: () => Promise<string>,
) {
  let message: string;
  try {
    message = await work();
  } catch (thrown) {
    if (thrown instanceof Refusal) return formError(submission, { message: thrown.message, status: thrown.status });
    const outage = unavailableMessage(thrown);
    if (!outage) throw thrown;
    return formError(submission, { message: outage, status: 503 });
  }
  return redirectWithFlash(args.request, listUrl(args.url, openParam), { kind: 'success', message });
}

/** The action of /dashboard/users: change a role, ban, unban. */
export async function userAdminAction(args: ActionArgs) {
  const { viewer } = requireSection(args);
  const submission = parseForm(await args.request.formData(), UserActionSchema);
  if (submission.status !== 'success') return formError(submission);
  const change = submission.value;
  return answer(args, submission, 'manage', async () => {
    const service = createServiceSupabase(args.context.get(connectionContext));
    const target = await checkUserChange(service, viewer.id, change);
    const message = await applyUserChange(service, viewer.id, change, target.username);
    forgetViewer(change.userId);
    return message;
  });
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

/**
 * What the admin pages (/dashboard/users and /dashboard/moderation) share: their search term, the
 * audit log, and how a change runs. Every change runs after the section's guard, through the
 * service role, as one database function that also writes its audit row (migration
 * 20261126000300); the database's refusals (its hints) become messages above the form, and
 * success redirects to the list with a flash.
 */
import type { PostgrestError } from '@supabase/supabase-js';
import { hrefWith } from '~/lib/href-with';
import { ROLE_LABEL, type Role } from '~/lib/permissions';
import { ADMIN_MESSAGES, MAX_ADMIN_SEARCH } from '~/schemas/admin';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError } from '~/server/forms.server';
import type { GuardArgs } from '~/server/guards.server';
import { unavailableMessage, unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { usernames } from '~/server/paged-lists.server';
import type { Refusal } from '~/lib/refusal';
import type { Json } from '~/types/database';

export const AUDIT_ENTRIES = 20;

/** A search term for the Data API's `or=(…)` filters: only the characters names and emails use. */
export function adminSearch(value: string | null): string {
  return (value ?? '')
    .replace(/[^A-Za-z0-9_@.+ -]/g, '')
    .trim()
    .slice(0, MAX_ADMIN_SEARCH);
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
/**
 * Writes one row of the audit log with the service role, for an admin's act the database does
 * not audit itself (a backup taken, a report generated). `targetId` is the act's own id.
 */
export async function writeAudit(
  service: AppSupabaseClient,
  entry: { actorId: string; action: string; targetType: string; targetId: string; details: Record<string, unknown> },
): Promise<void> {
  unwrap(
    await service.from('audit_log').insert({
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details: entry.details as Json,
    }),
    `audit ${entry.action}`,
  );
}

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
// Changes
// ---------------------------------------------------------------------------------------------

export type ActionArgs = GuardArgs & { request: Request; pattern: string };

/** The database's refusals (migration 20261126000300), by their hint. */
const DATABASE_REFUSALS: Record<string, Refusal> = {
  own_account: { message: ADMIN_MESSAGES.ownAccount, status: 403 },
  last_admin: { message: ADMIN_MESSAGES.lastAdmin, status: 409 },
  not_published: { message: ADMIN_MESSAGES.notPublished, status: 409 },
  not_moderated: { message: ADMIN_MESSAGES.notModerated, status: 409 },
};

/** A refusal thrown out of an admin change, answered above the form by `answer`. */
export class RefusalError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/** Runs an admin database function; a refusal becomes a `Refusal`, anything else is thrown. */
export async function callAdminFunction(
  service: AppSupabaseClient,
  call: (service: AppSupabaseClient) => PromiseLike<{ error: PostgrestError | null }>,
  notFoundMessage: string,
) {
  const { error } = await call(service);
  if (!error) return;
  const refusal = DATABASE_REFUSALS[error.hint ?? ''];
  if (refusal) throw new RefusalError(refusal);
  if (error.code === 'PT404') throw new RefusalError({ message: notFoundMessage, status: 404 });
  unwrap({ data: null, error }, 'admin change');
}

/** A refusal or an outage is a message above the form; success redirects with a flash. */
export async function answer(
  args: ActionArgs,
  submission: Parameters<typeof formError>[0],
  openParam: string,
  work: () => Promise<string>,
) {
  let message: string;
  try {
    message = await work();
  } catch (thrown) {
    if (thrown instanceof RefusalError) return formError(submission, thrown.refusal);
    const outage = unavailableMessage(thrown);
    if (!outage) throw thrown;
    return formError(submission, { message: outage, status: 503 });
  }
  // The page's own URL without the open form's parameter: where the list shows the result.
  const listUrl = hrefWith(args.url.pathname, args.url.search, { [openParam]: null });
  return redirectWithFlash(args.request, listUrl, { kind: 'success', message });
}

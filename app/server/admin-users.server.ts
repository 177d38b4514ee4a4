/**
 * /dashboard/users: the list of accounts (read through the admin's own client, so row-level
 * security decides what they see) and its changes: a new role, a ban, a lifted ban. Each change
 * is one database function that also writes its audit row (app/server/admin.server.ts); the
 * database refuses a self-demotion and the last administrator's demotion or ban. A ban also goes
 * to the Auth service, which refuses the user's sign-in and ends their sessions; the viewer cache
 * forgets the user, so a new role or a ban counts at once.
 */
import { connectionContext } from '~/context';
import { ROLE_LABEL, type Role } from '~/lib/permissions';
import { ADMIN_MESSAGES, UserActionSchema, type UserAction } from '~/schemas/admin';
import { formError, parseForm } from '~/server/forms.server';
import { forgetCatalogue } from '~/server/agents.server';
import { requireSection } from '~/server/guards.server';
import { unwrap } from '~/server/http-errors.server';
import { containsPattern } from '~/server/sales.server';
import { createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import { forgetViewer } from '~/server/viewer.server';
import { answer, callAdminFunction, RefusalError, type ActionArgs } from '~/server/admin.server';
import { pageOf, type Page } from '~/server/paged-lists.server';

/** How long a ban lasts in the Auth service: a hundred years, i.e. until an admin lifts it. */
const BAN_DURATION = '876000h';

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
  if (!target) throw new RefusalError({ message: ADMIN_MESSAGES.userNotFound, status: 404 });
  if (target.id === viewerId) throw new RefusalError({ message: ADMIN_MESSAGES.ownAccount, status: 403 });
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

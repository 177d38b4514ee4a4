/**
 * /dashboard/users (admins, manage_users): every account, searched by username or email through
 * a GET form, 25 per page, with role, sign-up date, purchases and ban state. 'Manage' opens the
 * row's forms through the URL (`?manage=<id>`): change the role, ban or unban, each with a
 * reason. The latest 20 entries of the audit log follow.
 */
import { ListRow } from '~/components/dashboard/list-row';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ActionPanel, AdminSearchForm, AuditLog, ReasonForm } from '~/components/dashboard/admin-parts';
import { Badge } from '~/components/dashboard/status-badge';
import { buttonClass } from '~/components/ui/button';
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatDate } from '~/lib/dashboard-format';
import { fieldValue, type FormResult } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { ROLE_LABEL, ROLES, type Role } from '~/lib/permissions';
import { MAX_ADMIN_SEARCH, parseIdParam } from '~/schemas/admin';
import { adminSearch, listAudit } from '~/server/admin.server';
import { listUsers, userAdminAction, type AdminUserRow } from '~/server/admin-users.server';
import { pageParam } from '~/lib/pagination';
import { requireSection } from '~/server/guards.server';
import { Link } from 'react-router';
import { Pager } from '~/components/ui/pager';
import { useHrefWith } from '~/lib/href-with';
import type { Route } from './+types/users';

/** Each role's badge colour in the list. */
const ROLE_TONE: Record<Role, 'amber' | 'brand' | 'slate'> = { admin: 'amber', seller: 'brand', buyer: 'slate' };

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const params = args.url.searchParams;
  const search = adminSearch(params.get('q'));
  const client = args.context.get(supabaseContext);
  const [users, audit] = await Promise.all([
    listUsers(client, { search, page: pageParam(params.get('page')) }),
    listAudit(client, ['user']),
  ]);
  return {
    users,
    audit,
    search,
    manage: parseIdParam(params.get('manage')),
    viewerId: viewer.id,
    timeZone: timeZoneFromCookieHeader(args.request.headers.get('cookie')),
  };
}

export const action = (args: Route.ActionArgs) => userAdminAction(args);

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('User Management', 'Search accounts, change roles and ban users.');

export default function UsersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { users, audit, search, manage, viewerId, timeZone } = loaderData;
  const hrefWith = useHrefWith();
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">User Management</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          Search accounts, change their role, and ban or unban them. Every change needs a reason and is written to the
          audit log.
        </p>
      </header>
      <AdminSearchForm
        label="Search by username or email"
        name="q"
        pageName="page"
        value={search}
        maxLength={MAX_ADMIN_SEARCH}
      />
      <section aria-labelledby="users-list" className="flex flex-col gap-3">
        <h2 id="users-list" className="text-xl font-semibold">
          {search ? `Users matching “${search}” (${users.total})` : `All users (${users.total})`}
        </h2>
        {users.rows.length === 0 ? (
          <p className="rounded-xl border border-slate-200 p-6 text-slate-700 dark:border-slate-700 dark:text-slate-300">
            {search ? 'No users match this search.' : 'No users yet.'}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
            {users.rows.map((user) => (
              <li key={user.id} aria-label={user.username}>
                <UserSummary
                  user={user}
                  timeZone={timeZone}
                  manageHref={manage === user.id ? null : hrefWith({ manage: user.id })}
                />
                {manage === user.id ? (
                  <ActionPanel label={`Manage ${user.username}`} closeHref={hrefWith({ manage: null })}>
                    <UserForms
                      user={user}
                      isViewer={user.id === viewerId}
                      action={hrefWith({ manage: user.id })}
                      result={fieldValue(actionData, 'userId') === user.id ? actionData : null}
                    />
                  </ActionPanel>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <Pager label="User pages" page={users.page} pageCount={users.pageCount} />
      </section>
      <AuditLog entries={audit} timeZone={timeZone} empty="No changes to accounts yet." />
    </div>
  );
}

function UserSummary({
  user,
  timeZone,
  manageHref,
}: {
  user: AdminUserRow;
  timeZone: string;
  manageHref: string | null;
}) {
  return (
    <ListRow
      details={
        <>
          <p className="font-semibold">{user.username}</p>
          <p className="text-sm break-all text-slate-700 dark:text-slate-300">{user.email}</p>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Signed up <time dateTime={user.createdAt}>{formatDate(user.createdAt, timeZone)}</time> ·{' '}
            {user.purchases === 1 ? '1 purchase' : `${user.purchases} purchases`}
          </p>
          {user.bannedAt ? (
            <p className="text-sm text-red-700 dark:text-red-300">
              Banned <time dateTime={user.bannedAt}>{formatDate(user.bannedAt, timeZone)}</time>
              {user.banReason ? `: ${user.banReason}` : null}
            </p>
          ) : null}
        </>
      }
    >
      <Badge tone={ROLE_TONE[user.role]}>{ROLE_LABEL[user.role]}</Badge>
      {user.bannedAt ? <Badge tone="amber">Banned</Badge> : null}
      {manageHref ? (
        <Link to={manageHref} preventScrollReset className={buttonClass('secondary', 'sm')}>
          Manage<span className="sr-only"> {user.username}</span>
        </Link>
      ) : null}
    </ListRow>
  );
}

function UserForms({
  user,
  isViewer,
  action,
  result,
}: {
  user: AdminUserRow;
  isViewer: boolean;
  action: string;
  result: FormResult | null | undefined;
}) {
  return (
    <>
      {isViewer ? (
        <p role="note" className="text-sm text-slate-700 md:col-span-2 dark:text-slate-300">
          This is your own account: you cannot demote or ban yourself.
        </p>
      ) : null}
      <ReasonForm
        title={`Change the role of ${user.username}`}
        action={action}
        intent="role"
        hidden={{ userId: user.id }}
        submitLabel="Change role"
        variant="primary"
        hint="Kept in the audit log."
        result={result}
      >
        <RoleSelect current={fieldValue(result, 'role') ?? user.role} />
      </ReasonForm>
      <ReasonForm
        title={user.bannedAt ? `Unban ${user.username}` : `Ban ${user.username}`}
        action={action}
        intent={user.bannedAt ? 'unban' : 'ban'}
        hidden={{ userId: user.id }}
        submitLabel={user.bannedAt ? 'Unban user' : 'Ban user'}
        variant={user.bannedAt ? 'secondary' : 'danger'}
        hint={
          user.bannedAt
            ? 'They can sign in again and their listings come back.'
            : 'They cannot sign in, their sessions end and their listings are hidden.'
        }
        result={result}
      />
    </>
  );
}

function RoleSelect({ current }: { current: string }) {
  return (
    <div>
      <label htmlFor="user-role" className="block text-sm font-medium">
        Role
      </label>
      <select
        id="user-role"
        name="role"
        defaultValue={current}
        className="mt-1 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-600 dark:bg-slate-950"
      >
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABEL[role]}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

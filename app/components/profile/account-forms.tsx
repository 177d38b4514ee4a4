/**
 * The account forms of the Security and Data & Export tabs: Change Password, the session list
 * with "Sign out of other sessions", Export Data and Delete Account. Plain POST forms (and a GET
 * download) that work without JavaScript; each shows its own result only.
 */
import { Form } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { Field, FormMessage } from '~/components/ui/field';
import { NewPasswordFields } from '~/components/ui/new-password-fields';
import { fieldError, formNotice, type FormResult } from '~/lib/form-result';
import { SaveButton } from './profile-parts';

function Notice({ result }: { result: FormResult | null }) {
  const notice = formNotice(result);
  return notice ? <FormMessage {...notice} /> : null;
}

export function ChangePasswordForm({ result }: { result: FormResult | null }) {
  return (
    <Form method="post" action="/profile?tab=security" className="mt-4 max-w-md space-y-4">
      <Notice result={result} />
      <Field
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        error={fieldError(result, 'currentPassword')}
      />
      <NewPasswordFields result={result} />
      <SaveButton intent="password" label="Change Password" pendingLabel="Changing..." />
    </Form>
  );
}

export interface SessionRow {
  id: string;
  device: string;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
}

export function SessionList({ sessions, result }: { sessions: SessionRow[]; result: FormResult | null }) {
  const others = sessions.filter((session) => !session.current).length;
  return (
    <div className="mt-2 space-y-4">
      <Notice result={result} />
      <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
        {sessions.map((session) => (
          <li key={session.id} className="py-3">
            <span className="font-medium">
              {session.device}
              {session.current ? ' · Current Session' : ''}
            </span>
            <span className="block text-slate-700 dark:text-slate-300">
              Signed in {session.signedInAt} · Last active {session.lastActiveAt}
            </span>
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Form method="post" action="/profile?tab=security">
          <SaveButton
            intent="sessions"
            label="Sign out of other sessions"
            pendingLabel="Signing out..."
            variant="secondary"
          />
        </Form>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-300">You are signed in on this browser only.</p>
      )}
    </div>
  );
}

export function ExportData() {
  return (
    <a href="/profile/export" download className={buttonClass('secondary', 'sm')}>
      Export Data
    </a>
  );
}

export function DeleteAccountForm({
  username,
  publishedAgents,
  result,
}: {
  username: string;
  publishedAgents: string[];
  result: FormResult | null;
}) {
  return (
    <Form method="post" action="/profile?tab=data" className="mt-4 max-w-md space-y-4">
      <Notice result={result} />
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This deletes your profile, settings, reviews, downloads and picture, and signs you out everywhere. It cannot be
        undone. Sellers keep their records of your purchases, without your name.
      </p>
      {publishedAgents.length > 0 ? (
        <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <p>
            Your{' '}
            {publishedAgents.length === 1
              ? 'published agent is unpublished and leaves'
              : `${publishedAgents.length} published agents are unpublished and leave`}{' '}
            the marketplace: {publishedAgents.join(', ')}. Buyers keep the copies they bought.
          </p>
        </div>
      ) : null}
      <Field
        label={`Type your username (${username}) to confirm`}
        name="confirmUsername"
        autoComplete="off"
        required
        error={fieldError(result, 'confirmUsername')}
      />
      <SaveButton intent="delete" label="Delete Account" pendingLabel="Deleting..." variant="danger" />
    </Form>
  );
}

/**
 * The Privacy, Notifications, Security and Data & Export tabs. Privacy and notifications are
 * real forms stored in `user_settings`; features without a server side yet are shown disabled
 * with a note instead of pretending to work.
 */
import { Form } from 'react-router';
import { FormMessage } from '~/components/ui/field';
import { fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { PROFILE_VISIBILITY_OPTIONS } from '~/schemas/profile';
import type { Settings } from '~/server/profile.server';
import { ChangePasswordForm, DeleteAccountForm, ExportData, SessionList, type SessionRow } from './account-forms';
import { SaveButton, Toggle } from './profile-parts';
import { TwoFactorPanel } from './two-factor-panel';

/** The value to show: what was just submitted (after a failed save) or what is stored. */
function checkedFrom(result: FormResult | null, name: keyof Settings, stored: boolean): boolean {
  return result ? fieldValue(result, name) === 'on' : stored;
}

/** The message above a settings form, after a failed save. */
function Notice({ result }: { result: FormResult | null }) {
  const notice = formNotice(result);
  return notice ? <FormMessage {...notice} /> : null;
}

export function PrivacyForm({ settings, result }: { settings: Settings; result: FormResult | null }) {
  return (
    <Form method="post" action="/profile?tab=privacy" className="space-y-5">
      <Notice result={result} />
      <div>
        <label htmlFor="profile-visibility" className="block text-sm font-medium">
          Profile visibility
        </label>
        <select
          id="profile-visibility"
          name="profile_visibility"
          defaultValue={fieldValue(result, 'profile_visibility') ?? settings.profile_visibility}
          className="mt-1 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-600 dark:bg-slate-950"
        >
          {PROFILE_VISIBILITY_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="divide-y divide-slate-200 dark:divide-slate-800">
        <legend className="text-sm font-medium">Contact details on your profile</legend>
        <Toggle
          name="show_email"
          label="Show email address"
          description="Display your email on your public profile"
          defaultChecked={checkedFrom(result, 'show_email', settings.show_email)}
        />
        <Toggle
          name="show_phone"
          label="Show phone number"
          description="Display your phone number on your public profile"
          defaultChecked={checkedFrom(result, 'show_phone', settings.show_phone)}
        />
      </fieldset>
      <SaveButton intent="privacy" label="Save Privacy Settings" />
    </Form>
  );
}

const NOTIFICATION_TOGGLES = [
  ['email_notifications', 'Email notifications', 'Receive notifications by email'],
  ['push_notifications', 'Push notifications', 'Receive push notifications in your browser'],
  ['marketing_emails', 'Marketing emails', 'Receive emails about new features and offers'],
  ['weekly_digest', 'Weekly digest', 'Receive a weekly summary of your activity'],
] as const;

export function NotificationsForm({ settings, result }: { settings: Settings; result: FormResult | null }) {
  return (
    <Form method="post" action="/profile?tab=notifications" className="space-y-5">
      <Notice result={result} />
      <fieldset className="divide-y divide-slate-200 dark:divide-slate-800">
        <legend className="sr-only">Notification preferences</legend>
        {NOTIFICATION_TOGGLES.map(([name, label, description]) => (
          <Toggle
            key={name}
            name={name}
            label={label}
            description={description}
            defaultChecked={checkedFrom(result, name, settings[name])}
          />
        ))}
      </fieldset>
      <SaveButton intent="notifications" label="Save Preferences" />
    </Form>
  );
}

const ROW =
  'flex flex-wrap items-start justify-between gap-4 rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';

export function SecurityPanel({
  twoFactorOn,
  sessions,
  passwordResult,
  sessionsResult,
}: {
  twoFactorOn: boolean;
  sessions: SessionRow[];
  passwordResult: FormResult | null;
  sessionsResult: FormResult | null;
}) {
  return (
    <div className="space-y-4">
      <TwoFactorPanel on={twoFactorOn} />
      <section aria-labelledby="password-title" className={PANEL}>
        <h3 id="password-title" className="font-medium">
          Change Password
        </h3>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Your other sessions are signed out when the password changes.
        </p>
        <ChangePasswordForm result={passwordResult} />
      </section>
      <section aria-labelledby="sessions-title" className={PANEL}>
        <h3 id="sessions-title" className="font-medium">
          Active sessions
        </h3>
        <SessionList sessions={sessions} result={sessionsResult} />
      </section>
    </div>
  );
}

export function DataPanel({
  username,
  publishedAgents,
  deleteResult,
}: {
  username: string;
  publishedAgents: string[];
  deleteResult: FormResult | null;
}) {
  return (
    <div className="space-y-6">
      <div className={ROW}>
        <div>
          <h3 className="font-medium">Export your data</h3>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Download a JSON file of your profile, settings, purchases, reviews and downloads (and, for sellers, your
            agents and sales).
          </p>
        </div>
        <ExportData />
      </div>
      <section aria-labelledby="danger-zone-title" className="rounded-xl border border-red-300 p-5 dark:border-red-800">
        <h3 id="danger-zone-title" className="font-semibold text-red-800 dark:text-red-300">
          Danger Zone
        </h3>
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          Permanently delete your account and everything linked to it.
        </p>
        <DeleteAccountForm username={username} publishedAgents={publishedAgents} result={deleteResult} />
      </section>
    </div>
  );
}

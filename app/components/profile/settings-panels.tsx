/**
 * The Privacy, Notifications, Security and Data & Export tabs. Privacy and notifications are
 * real forms stored in `user_settings`; features without a server side yet are shown disabled
 * with a note instead of pretending to work.
 */
import { Form, Link } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { FormMessage } from '~/components/ui/field';
import { fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { PROFILE_VISIBILITY_OPTIONS } from '~/schemas/profile';
import type { Settings } from '~/server/profile.server';
import { LaterReleaseNote, SaveButton, Toggle } from './profile-parts';
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

export function SecurityPanel({ twoFactorOn, signedInSince }: { twoFactorOn: boolean; signedInSince: string | null }) {
  return (
    <div className="space-y-4">
      <TwoFactorPanel on={twoFactorOn} />
      <div className={ROW}>
        <div>
          <h3 className="font-medium">Password</h3>
          <p className="text-sm text-slate-700 dark:text-slate-300">Choose a new password for your account.</p>
        </div>
        <Link to="/auth/reset-password" className={buttonClass('secondary', 'sm')}>
          Change Password
        </Link>
      </div>
      <div className={ROW}>
        <div>
          <h3 className="font-medium">Active sessions</h3>
          <ul className="mt-2 text-sm">
            <li>
              <span className="font-medium">Current Session</span>
              <span className="block text-slate-700 dark:text-slate-300">
                This browser
                {signedInSince ? ` · signed in since ${signedInSince}` : ''}
              </span>
            </li>
          </ul>
        </div>
      </div>
    </div>
  );
}

export function DataPanel() {
  return (
    <div className="space-y-6">
      <LaterReleaseNote id="data-note">Data export and account deletion arrive with a later release.</LaterReleaseNote>
      <div className={ROW}>
        <div>
          <h3 className="font-medium">Export your data</h3>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Download a copy of your profile, purchases and reviews.
          </p>
        </div>
        <button type="button" disabled aria-describedby="data-note" className={buttonClass('secondary', 'sm')}>
          Export Data
        </button>
      </div>
      <section aria-labelledby="danger-zone-title" className="rounded-xl border border-red-300 p-5 dark:border-red-800">
        <h3 id="danger-zone-title" className="font-semibold text-red-800 dark:text-red-300">
          Danger Zone
        </h3>
        <div className="mt-2 flex flex-wrap items-start justify-between gap-4">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Permanently delete your account and everything linked to it.
          </p>
          <button type="button" disabled aria-describedby="data-note" className={buttonClass('danger', 'sm')}>
            Delete Account
          </button>
        </div>
      </section>
    </div>
  );
}

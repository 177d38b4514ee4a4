import { GeneralErrorBoundary } from '~/components/error-boundary';
import type { SupabaseClient } from '@supabase/supabase-js';
import { redirect } from 'react-router';
import { ProfileDetailsForm } from '~/components/profile/profile-details-form';
import { ProfileNav, TabSection } from '~/components/profile/profile-parts';
import { DataPanel, NotificationsForm, PrivacyForm, SecurityPanel } from '~/components/profile/settings-panels';
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { fieldValue } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import {
  PROFILE_MESSAGES,
  ProfileActionSchema,
  parseProfileIntent,
  parseProfileTab,
  type ProfileAction,
  type ProfileIntent,
} from '~/schemas/profile';
import { setFlash } from '~/server/cookies.server';
import { failIfInjected } from '~/server/faults.server';
import { formError, parseForm } from '~/server/forms.server';
import { requirePermission } from '~/server/guards.server';
import { getLastSignInAt, getProfile, getSettings, updateProfile, updateSettings } from '~/server/profile.server';
import type { Route } from './+types/profile';

const SAVED_MESSAGES: Record<ProfileIntent, string> = {
  profile: 'Profile updated successfully!',
  privacy: 'Privacy settings saved successfully!',
  notifications: 'Notification preferences saved successfully!',
};

const TAB_COPY = {
  profile: ['Profile Information', 'Update your personal details and how others see you.'],
  privacy: ['Privacy Settings', 'Control who can see your profile and contact details.'],
  notifications: ['Notification Preferences', 'Choose which messages you want to receive.'],
  security: ['Security Settings', 'Manage your password, two-factor authentication and sessions.'],
  data: ['Data & Export', 'Export your data or delete your account.'],
} as const;

function formatSignIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}

/** Writes the one section the form belongs to, naming every column explicitly. */
function saveSection(client: SupabaseClient, userId: string, currentUsername: string, form: ProfileAction) {
  switch (form.intent) {
    case 'profile': {
      const { username, first_name, last_name, phone, location, website, bio } = form;
      return updateProfile(client, userId, currentUsername, {
        username,
        first_name,
        last_name,
        phone,
        location,
        website,
        bio,
      });
    }
    case 'privacy':
      return updateSettings(client, userId, {
        profile_visibility: form.profile_visibility,
        show_email: form.show_email,
        show_phone: form.show_phone,
      });
    case 'notifications':
      return updateSettings(client, userId, {
        email_notifications: form.email_notifications,
        push_notifications: form.push_notifications,
        marketing_emails: form.marketing_emails,
        weekly_digest: form.weekly_digest,
      });
  }
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = requirePermission(args, 'manage_profile');
  failIfInjected(args.request, 'profile');
  const client = args.context.get(supabaseContext);
  const tab = parseProfileTab(args.url.searchParams.get('tab'));
  const [profile, settings, lastSignInAt] = await Promise.all([
    getProfile(client, viewer.id),
    getSettings(client, viewer.id),
    tab === 'security' ? getLastSignInAt(client) : Promise.resolve(null),
  ]);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  return {
    tab,
    profile,
    settings,
    signedInSince: lastSignInAt ? formatSignIn(lastSignInAt, timeZone) : null,
  };
}

export async function action(args: Route.ActionArgs) {
  const viewer = requirePermission(args, 'manage_profile');
  const { request, context } = args;
  // The result carries what was typed, `intent` included: the page shows it under the form it came from.
  const submission = parseForm(await request.formData(), ProfileActionSchema);
  if (submission.status !== 'success') {
    return formError(submission, { summarize: (messages) => messages[0] ?? PROFILE_MESSAGES.failed });
  }
  const form = submission.value;
  const result = await saveSection(context.get(supabaseContext), viewer.id, viewer.username, form);
  if (!result.ok) {
    const fieldErrors = result.status === 409 ? { username: [result.message] } : undefined;
    return formError(submission, { message: result.message, fieldErrors, status: result.status });
  }
  const cookie = await setFlash(request, { kind: 'success', message: SAVED_MESSAGES[form.intent] });
  return redirect(`/profile?tab=${form.intent}`, { headers: { 'Set-Cookie': cookie } });
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Profile & Settings', 'Manage your AgentMarket profile, privacy, notifications and account security.');

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, profile, settings, signedInSince } = loaderData;
  const resultFor = (intent: ProfileIntent) =>
    actionData && parseProfileIntent(fieldValue(actionData, 'intent')) === intent ? actionData : null;
  const [title, description] = TAB_COPY[tab];
  return (
    <div className="container-page py-10">
      <header className="mb-8">
        <h1 className="text-3xl font-bold">Profile &amp; Settings</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">Manage your account settings and preferences.</p>
      </header>
      <div className="grid gap-8 md:grid-cols-[14rem_1fr]">
        <ProfileNav current={tab} />
        <TabSection title={title} description={description}>
          {tab === 'profile' ? <ProfileDetailsForm profile={profile} result={resultFor('profile')} /> : null}
          {tab === 'privacy' ? <PrivacyForm settings={settings} result={resultFor('privacy')} /> : null}
          {tab === 'notifications' ? (
            <NotificationsForm settings={settings} result={resultFor('notifications')} />
          ) : null}
          {tab === 'security' ? (
            <SecurityPanel twoFactorOn={settings.two_factor_auth} signedInSince={signedInSince} />
          ) : null}
          {tab === 'data' ? <DataPanel /> : null}
        </TabSection>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

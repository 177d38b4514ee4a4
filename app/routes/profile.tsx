import { GeneralErrorBoundary } from '~/components/error-boundary';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useRouteLoaderData } from 'react-router';
import { FormMessage } from '~/components/ui/field';
import { ProfileDetailsForm } from '~/components/profile/profile-details-form';
import { ProfileNav, TabSection } from '~/components/profile/profile-parts';
import { DataPanel, NotificationsForm, PrivacyForm, SecurityPanel } from '~/components/profile/settings-panels';
import { connectionContext, supabaseContext } from '~/context';
import type { loader as rootLoader } from '~/root';
import {
  ACCOUNT_INTENTS,
  ACCOUNT_MESSAGES,
  ChangePasswordSchema,
  DeleteAccountSchema,
  OtherSessionsSchema,
  PictureSchema,
  type AccountIntent,
} from '~/schemas/account';
import {
  changePassword,
  checkPicture,
  deleteAccount,
  endOtherSessions,
  listSessions,
  publishedAgentNames,
  replacePicture,
  type AccountResult,
} from '~/server/account.server';
import { chosenFiles, textFields } from '~/server/form-files.server';
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
import { redirectWithFlash } from '~/server/cookies.server';
import { failIfInjected } from '~/server/faults.server';
import { formError, parseForm } from '~/server/forms.server';
import type { Viewer } from '~/lib/viewer';
import type { Submission } from '@conform-to/react';
import { requirePermission } from '~/server/guards.server';
import { getProfile, getSettings, updateProfile, updateSettings } from '~/server/profile.server';
import type { Route } from './+types/profile';
import { hasPermission } from '~/lib/permissions';

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

function formatMoment(iso: string, timeZone: string): string {
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
  const [profile, settings, sessions, publishedAgents] = await Promise.all([
    getProfile(client, viewer.id),
    getSettings(client, viewer.id),
    tab === 'security' ? listSessions(client) : Promise.resolve([]),
    tab === 'data' && hasPermission(viewer.role, 'list_products')
      ? publishedAgentNames(client, viewer.id)
      : Promise.resolve([]),
  ]);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  return {
    tab,
    profile,
    settings,
    publishedAgents,
    sessions: sessions.map((session) => ({
      ...session,
      signedInAt: formatMoment(session.signedInAt, timeZone),
      lastActiveAt: formatMoment(session.lastActiveAt, timeZone),
    })),
  };
}

type AnySubmission = Submission<unknown, string[], unknown>;

/** After a change: back to the tab with the message shown there (scope 'profile'), POST → redirect → GET. */
async function done(request: Request, tab: string, message: string) {
  return redirectWithFlash(request, `/profile?tab=${tab}`, { kind: 'success', message, scope: 'profile' });
}

function refusedWith(submission: AnySubmission, result: Exclude<AccountResult, { ok: true }>) {
  return formError(submission, {
    message: result.message,
    fieldErrors: result.field ? { [result.field]: [result.message] } : undefined,
    status: result.status,
  });
}

/** The account intents: picture (multipart), password, other sessions, delete. */
async function accountAction(args: Route.ActionArgs, viewer: Viewer, intent: AccountIntent, form: FormData) {
  const { request, context } = args;
  const client = context.get(supabaseContext);
  const connection = context.get(connectionContext);
  switch (intent) {
    case 'picture': {
      const submission = parseForm(textFields(form), PictureSchema);
      if (submission.status !== 'success') return formError(submission);
      const picture = await checkPicture(chosenFiles(form, 'picture')[0]);
      if (!picture.ok)
        return refusedWith(submission, { ok: false, status: 400, message: picture.message, field: 'picture' });
      const result = await replacePicture(client, viewer.id, picture);
      return result.ok ? done(request, 'profile', ACCOUNT_MESSAGES.pictureSaved) : refusedWith(submission, result);
    }
    case 'password': {
      const submission = parseForm(form, ChangePasswordSchema);
      if (submission.status !== 'success') return formError(submission);
      const { currentPassword, password } = submission.value;
      const result = await changePassword(client, connection, viewer, currentPassword, password);
      return result.ok ? done(request, 'security', ACCOUNT_MESSAGES.passwordChanged) : refusedWith(submission, result);
    }
    case 'sessions': {
      const submission = parseForm(form, OtherSessionsSchema);
      if (submission.status !== 'success') return formError(submission);
      const result = await endOtherSessions(client, viewer.id);
      return result.ok
        ? done(request, 'security', ACCOUNT_MESSAGES.otherSessionsEnded)
        : refusedWith(submission, result);
    }
    case 'delete': {
      const submission = parseForm(form, DeleteAccountSchema);
      if (submission.status !== 'success') return formError(submission);
      const result = await deleteAccount(client, connection, viewer, submission.value.confirmUsername);
      if (!result.ok) return refusedWith(submission, result);
      return redirectWithFlash(request, '/', { kind: 'success', message: ACCOUNT_MESSAGES.deleted });
    }
  }
}

const isAccountIntent = (value: unknown): value is AccountIntent => ACCOUNT_INTENTS.some((intent) => intent === value);

export async function action(args: Route.ActionArgs) {
  const viewer = requirePermission(args, 'manage_profile');
  const { request, context } = args;
  // The result carries what was typed, `intent` included: the page shows it under the form it came from.
  const formData = await request.formData();
  const intent = formData.get('intent');
  if (isAccountIntent(intent)) return accountAction(args, viewer, intent, formData);
  const submission = parseForm(textFields(formData), ProfileActionSchema);
  if (submission.status !== 'success') {
    return formError(submission, { summarize: (messages) => messages[0] ?? PROFILE_MESSAGES.failed });
  }
  const form = submission.value;
  const result = await saveSection(context.get(supabaseContext), viewer.id, viewer.username, form);
  if (!result.ok) {
    const fieldErrors = result.field ? { [result.field]: [result.message] } : undefined;
    return formError(submission, { message: result.message, fieldErrors, status: result.status });
  }
  return done(request, form.intent, SAVED_MESSAGES[form.intent]);
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Profile & Settings', 'Manage your AgentMarket profile, privacy, notifications and account security.');

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, profile, settings, sessions, publishedAgents } = loaderData;
  const submitted = fieldValue(actionData, 'intent');
  const owner = isAccountIntent(submitted) ? submitted : parseProfileIntent(submitted);
  const resultFor = (intent: ProfileIntent | AccountIntent) => (actionData && owner === intent ? actionData : null);
  // One form state at a time: the last change's message goes as soon as a later save fails.
  const flash = useRouteLoaderData<typeof rootLoader>('root')?.flash;
  const saved = flash?.scope === 'profile' && !actionData ? flash : null;
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
          {saved ? (
            <div className="mb-6">
              <FormMessage kind={saved.kind} message={saved.message} />
            </div>
          ) : null}
          {tab === 'profile' ? (
            <ProfileDetailsForm profile={profile} result={resultFor('profile')} pictureResult={resultFor('picture')} />
          ) : null}
          {tab === 'privacy' ? <PrivacyForm settings={settings} result={resultFor('privacy')} /> : null}
          {tab === 'notifications' ? (
            <NotificationsForm settings={settings} result={resultFor('notifications')} />
          ) : null}
          {tab === 'security' ? (
            <SecurityPanel
              twoFactorOn={settings.two_factor_auth}
              sessions={sessions}
              passwordResult={resultFor('password')}
              sessionsResult={resultFor('sessions')}
            />
          ) : null}
          {tab === 'data' ? (
            <DataPanel
              username={profile.username}
              publishedAgents={publishedAgents}
              deleteResult={resultFor('delete')}
            />
          ) : null}
        </TabSection>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

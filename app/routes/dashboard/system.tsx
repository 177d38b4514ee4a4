import { PlatformSettingsForm } from '~/components/dashboard/platform-settings-form';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { DataTable, type DataColumn } from '~/components/ui/data-table';
import { connectionContext, supabaseContext } from '~/context';
import { errorMeta, pageMeta } from '~/lib/meta';
import { PLATFORM_SETTINGS_MESSAGES, platformSettingsSchema } from '~/schemas/platform-settings';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection } from '~/server/guards.server';
import { readEmailDelivery, type EmailDelivery, type OutboxEntry } from '~/server/auth-admin.server';
import { listSettingsChanges, platformSettings, savePlatformSettings } from '~/server/platform-settings.server';
import type { Route } from './+types/system';

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

/**
 * System Settings (admins): the platform settings (fee, limits, sign-up, maintenance; ADR 065), what this
 * deployment's sign-in and email are configured with, and the email outbox. The outbox holds live
 * sign-in links and codes, so it is read with the service key after the section's guard
 * (`access_system_settings`, app/lib/dashboard-nav.ts); the settings are saved as the admin, whom
 * row-level security alone lets change them.
 */
export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  const [email, settings, changes] = await Promise.all([
    readEmailDelivery(args.context.get(connectionContext)),
    platformSettings(args.context),
    listSettingsChanges(args.context.get(supabaseContext)),
  ]);
  // Signed-in pages are already `private, no-store` (the root middleware).
  return { email, settings, changes };
}

export async function action(args: Route.ActionArgs) {
  requireSection(args);
  const submission = parseForm(await args.request.formData(), platformSettingsSchema);
  if (submission.status !== 'success') return formError(submission);
  await savePlatformSettings(args.context.get(supabaseContext), submission.value);
  return redirectWithFlash(args.request, '/dashboard/system', {
    kind: 'success',
    message: PLATFORM_SETTINGS_MESSAGES.saved,
  });
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta(
    'System Settings',
    'Platform settings, and how this AgentMarket deployment sends email and signs people in.',
  );

const DELIVERY_LABEL = {
  smtp: 'Sent through the configured SMTP server',
  log: 'Not sent: no SMTP server is configured. Each email is written to the server log and listed below.',
} as const;

const GOOGLE_LABEL = {
  oidc: 'Google (OpenID Connect) with the configured client',
  'stand-in': 'The local Google stand-in (development tools)',
  off: 'Not configured: "Continue with Google" is hidden',
} as const;

function StatusList({ email }: { email: EmailDelivery }) {
  const rows: Array<[string, string]> =
    email.kind === 'hosted'
      ? [
          ['Backend', 'Hosted Supabase'],
          ['Email delivery', 'Sent by the hosted Supabase project (its SMTP settings and Auth logs)'],
        ]
      : [
          ['Backend', 'Embedded Supabase-compatible backend'],
          ['Email delivery', DELIVERY_LABEL[email.delivery]],
          ['Google sign-in', GOOGLE_LABEL[email.google]],
          [
            'Development tools',
            email.devTools
              ? 'On (ENABLE_DEV_TOOLS): the open outbox and the Google stand-in are reachable. Never use in production.'
              : 'Off',
          ],
        ];
  return (
    <section aria-labelledby="system-status" className={PANEL}>
      <h2 id="system-status" className="text-lg font-semibold">
        Sign-in and email
      </h2>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-medium">{term}</dt>
            <dd className="text-slate-700 dark:text-slate-300">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const OUTBOX_COLUMNS: DataColumn<OutboxEntry>[] = [
  {
    header: 'Sent (UTC)',
    cell: (entry) => entry.createdAt.slice(0, 16).replace('T', ' '),
    className: 'md:whitespace-nowrap',
  },
  { header: 'To', cell: (entry) => entry.to },
  { header: 'Subject', cell: (entry) => entry.subject },
  { header: 'Code', cell: (entry) => entry.otp, className: 'font-mono' },
  { header: 'Link', cell: (entry) => entry.link, className: 'font-mono text-xs break-all' },
];

function Outbox({ email }: { email: EmailDelivery }) {
  return (
    <section aria-labelledby="email-outbox" className={PANEL}>
      <h2 id="email-outbox" className="text-lg font-semibold">
        Email outbox
      </h2>
      {email.kind === 'hosted' ? (
        <p className={`mt-2 ${SECONDARY}`}>Hosted Supabase keeps no outbox here; see the project&apos;s Auth logs.</p>
      ) : (
        <>
          <p className={`mt-2 ${SECONDARY}`}>
            The newest emails the Auth service produced{email.delivery === 'smtp' ? ' (a copy of what was sent)' : ''}.
            Their links and codes sign the recipient in: only administrators see this list. Pass a link only to the
            person it was meant for, after checking who they are.
          </p>
          {email.emails.length === 0 ? (
            <p className={`mt-4 ${SECONDARY}`}>No emails yet.</p>
          ) : (
            <div className="mt-4">
              <DataTable
                caption="Email outbox, newest first"
                columns={OUTBOX_COLUMNS}
                rows={email.emails}
                rowKey={(entry) => String(entry.id)}
                framed={false}
              />
            </div>
          )}
        </>
      )}
    </section>
  );
}

export default function SystemPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">System Settings</h1>
        <p className={`mt-1 ${SECONDARY}`}>
          The platform fee and limits, sign-up and maintenance mode, and how this deployment sends email and signs
          people in.
        </p>
      </header>
      <PlatformSettingsForm settings={loaderData.settings} changes={loaderData.changes} result={actionData} />
      <StatusList email={loaderData.email} />
      <Outbox email={loaderData.email} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

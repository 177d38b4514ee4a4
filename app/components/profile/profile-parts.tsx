/**
 * Small pieces shared by the profile page's tabs: the tab navigation, a labelled switch, the
 * pending-aware save button and the honest "later release" note.
 */
import { Link, useNavigation } from 'react-router';
import type { ReactNode } from 'react';
import type { AccountIntent } from '~/schemas/account';
import type { ProfileIntent, ProfileTab } from '~/schemas/profile';
import { SubmitButton } from '~/components/ui/submit-button';

const TAB_LABELS: Record<ProfileTab, string> = {
  profile: 'Profile',
  privacy: 'Privacy',
  notifications: 'Notifications',
  security: 'Security',
  data: 'Data & Export',
};

export function ProfileNav({ current }: { current: ProfileTab }) {
  return (
    <nav aria-label="Profile sections">
      <ul className="flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800 md:flex-col md:border-b-0">
        {(Object.keys(TAB_LABELS) as ProfileTab[]).map((tab) => {
          const isCurrent = tab === current;
          return (
            <li key={tab}>
              <Link
                to={`/profile?tab=${tab}`}
                aria-current={isCurrent ? 'page' : undefined}
                preventScrollReset
                className={`block rounded-lg px-4 py-2 text-sm font-medium ${
                  isCurrent
                    ? 'bg-brand-50 text-brand-800 dark:bg-brand-900 dark:text-white'
                    : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
                }`}
              >
                {TAB_LABELS[tab]}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function TabSection({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="profile-tab-title"
      className="rounded-2xl border border-slate-200 p-6 dark:border-slate-800"
    >
      <h2 id="profile-tab-title" className="text-xl font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{description}</p>
      <div className="mt-6">{children}</div>
    </section>
  );
}

/** A checkbox drawn as a switch; the whole row is its label. */
export function Toggle({
  name,
  label,
  description,
  defaultChecked,
}: {
  name: string;
  label: string;
  description?: string;
  defaultChecked: boolean;
}) {
  return (
    <label className="flex cursor-pointer items-center justify-between gap-4 py-3">
      <span>
        <span className="block text-sm font-medium">{label}</span>
        {description ? <span className="block text-sm text-slate-700 dark:text-slate-300">{description}</span> : null}
      </span>
      <input type="checkbox" role="switch" name={name} defaultChecked={defaultChecked} className="peer sr-only" />
      <span
        aria-hidden="true"
        className="relative h-6 w-11 shrink-0 rounded-full bg-slate-500 transition-colors peer-checked:bg-brand-600 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-focus after:absolute after:top-0.5 after:left-0.5 after:size-5 after:rounded-full after:bg-white after:transition-transform peer-checked:after:translate-x-5"
      />
    </label>
  );
}

/** The save button of one form: disabled and relabelled while that form's POST is under way. */
export function SaveButton({
  intent,
  label = 'Save Changes',
  pendingLabel = 'Saving...',
  variant = 'primary',
}: {
  intent: ProfileIntent | AccountIntent;
  label?: string;
  pendingLabel?: string;
  variant?: 'primary' | 'secondary' | 'danger';
}) {
  const navigation = useNavigation();
  const isSaving =
    navigation.state === 'submitting' &&
    navigation.formMethod?.toUpperCase() === 'POST' &&
    navigation.formData?.get('intent') === intent;
  return (
    <SubmitButton name="intent" value={intent} pending={isSaving} pendingLabel={pendingLabel} variant={variant}>
      {label}
    </SubmitButton>
  );
}

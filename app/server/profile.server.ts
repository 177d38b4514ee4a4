/**
 * The viewer's own profile and settings, read and written with the request's client: row-level
 * security lets a user read and update only their own `users` and `user_settings` rows. Call
 * only after `requireUser`.
 */
import type { NotificationsForm, PrivacyForm, ProfileForm } from '~/schemas/profile';
import { PROFILE_MESSAGES } from '~/schemas/profile';
import { forgetCatalogue } from '~/server/agents.server';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { forgetViewer } from '~/server/viewer.server';
import type { Tables } from '~/types/database';
import type { Refusal } from '~/lib/refusal';
import { AUTHORITY_NAME_MESSAGE, refusesAuthorityName } from '~/lib/auth-rules';

/** The columns of the viewer's `users` row the profile page edits (the email is never null here). */
export type Profile = Pick<
  Tables<'users'>,
  'username' | 'first_name' | 'last_name' | 'bio' | 'website' | 'location' | 'phone' | 'profile_image_url'
> & { email: string };

/** The viewer's `user_settings` row; the CHECK constraint limits `profile_visibility` to three values. */
export type Settings = Omit<
  Pick<
    Tables<'user_settings'>,
    | 'email_notifications'
    | 'push_notifications'
    | 'marketing_emails'
    | 'weekly_digest'
    | 'profile_visibility'
    | 'show_email'
    | 'show_phone'
    | 'two_factor_auth'
  >,
  'profile_visibility'
> & { profile_visibility: 'public' | 'members' | 'private' };

const PROFILE_COLUMNS = 'username, email, first_name, last_name, bio, website, location, phone, profile_image_url';
const SETTINGS_COLUMNS =
  'email_notifications, push_notifications, marketing_emails, weekly_digest, profile_visibility, show_email, show_phone, two_factor_auth';

/** A new account's settings (docs/product.md, "Profile and settings"), used only if the row the sign-up trigger creates is somehow missing. */
export const DEFAULT_SETTINGS: Settings = {
  email_notifications: true,
  push_notifications: false,
  marketing_emails: false,
  weekly_digest: true,
  profile_visibility: 'public',
  show_email: false,
  show_phone: false,
  two_factor_auth: false,
};

export async function getProfile(client: AppSupabaseClient, userId: string): Promise<Profile> {
  // `.single()`: a missing row is an error too (PGRST116), so a 503, never an empty form.
  const profile = unwrap(await client.from('users').select(PROFILE_COLUMNS).eq('id', userId).single(), 'profile');
  return { ...profile, email: profile.email ?? '' };
}

export async function getSettings(client: AppSupabaseClient, userId: string): Promise<Settings> {
  const settings = unwrap(
    await client.from('user_settings').select(SETTINGS_COLUMNS).eq('user_id', userId).maybeSingle(),
    'settings',
  );
  if (!settings) return DEFAULT_SETTINGS;
  return { ...settings, profile_visibility: settings.profile_visibility as Settings['profile_visibility'] };
}

/** When this browser's session last signed in, from the Auth service; null if unknown. */
export async function getLastSignInAt(client: AppSupabaseClient): Promise<string | null> {
  const { data, error } = await client.auth.getUser();
  if (error) return null;
  return data.user?.last_sign_in_at ?? null;
}

export type SaveResult = { ok: true } | ({ ok: false } & Refusal);

const taken = (): SaveResult => ({
  ok: false,
  status: 409,
  message: PROFILE_MESSAGES.usernameTaken,
  field: 'username',
});

/**
 * Updates the viewer's profile. A username other than the viewer's own (case-insensitively) is
 * checked with `is_username_available` first; the unique index (23505) is the final word.
 */
export async function updateProfile(
  client: AppSupabaseClient,
  userId: string,
  currentUsername: string,
  form: ProfileForm,
): Promise<SaveResult> {
  if (form.username.toLowerCase() !== currentUsername.toLowerCase()) {
    const { data: available, error } = await client.rpc('is_username_available', { name: form.username });
    if (error) console.error('Username check failed:', error.message);
    else if (available === false) return taken();
  }
  const { error } = await client
    .from('users')
    .update({ ...form, updated_at: new Date().toISOString() })
    .eq('id', userId);
  if (!error) return saved(userId);
  if (error.code === '23505') return taken();
  if (refusesAuthorityName(error))
    return { ok: false, status: 400, message: AUTHORITY_NAME_MESSAGE, field: 'first_name' };
  console.error('Profile update failed:', error.code, error.message);
  // A check constraint (23514) is the user's input; anything else is ours.
  if (error.code === '23514') return { ok: false, status: 400, message: PROFILE_MESSAGES.failed };
  return { ok: false, status: 503, message: PROFILE_MESSAGES.failed };
}

/** The viewer's name, avatar and privacy show in the header and on catalogue pages. */
function saved(userId: string): SaveResult {
  forgetViewer(userId);
  forgetCatalogue();
  return { ok: true };
}

/** Saves privacy or notification settings on the viewer's own settings row. */
export async function updateSettings(
  client: AppSupabaseClient,
  userId: string,
  values: PrivacyForm | NotificationsForm,
): Promise<SaveResult> {
  const { error } = await client
    .from('user_settings')
    .upsert({ user_id: userId, ...values, updated_at: new Date().toISOString() }, { onConflict: 'user_id' });
  if (!error) return saved(userId);
  console.error('Settings update failed:', error.code, error.message);
  return { ok: false, status: 503, message: 'Failed to save your settings' };
}

/**
 * The profile page's forms (docs/product.md, "Profile and settings"): one action, one
 * discriminated union on `intent`. Shared by the server action and the browser's constraints.
 */
import { z } from 'zod';
import {
  HTTP_URL_PATTERN,
  MAX_USERNAME_LENGTH,
  MIN_USERNAME_LENGTH,
  USERNAME_CHARACTERS_MESSAGE,
  USERNAME_PATTERN,
} from '~/lib/auth-rules';

export const PROFILE_TABS = ['profile', 'privacy', 'notifications', 'security', 'data'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

/** The tab named in the URL, or the profile tab for anything else. */
export function parseProfileTab(value: string | null): ProfileTab {
  return PROFILE_TABS.find((tab) => tab === value) ?? 'profile';
}

export const MAX_BIO_LENGTH = 500;
export const MAX_NAME_LENGTH = 60;
export const MAX_PHONE_LENGTH = 30;
export const MAX_LOCATION_LENGTH = 100;
export const MAX_WEBSITE_LENGTH = 2048;

export const PROFILE_MESSAGES = {
  usernameLength: 'Username must be at least 3 characters long',
  usernameTooLong: 'Username must be at most 30 characters long',
  usernameCharacters: USERNAME_CHARACTERS_MESSAGE,
  usernameTaken: 'This username is already taken. Please choose another one.',
  bioTooLong: 'Bio must be at most 500 characters',
  website: 'Website must be a valid http:// or https:// address',
  phoneTooLong: 'Phone must be at most 30 characters',
  nameTooLong: 'Names must be at most 60 characters',
  locationTooLong: 'Location must be at most 100 characters',
  failed: 'Failed to update profile',
} as const;

export const PROFILE_VISIBILITY_OPTIONS = [
  { value: 'public', label: 'Public - Anyone can see your profile' },
  { value: 'members', label: 'Members Only - Only registered users' },
  { value: 'private', label: 'Private - Only you can see your profile' },
] as const;

/** Optional free text: trimmed, empty becomes null (stored as NULL). */
function optionalText(max: number, message: string) {
  return z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((value) => (value ? value : null));
}

/** The database's users_website_http_url check, plus a parsable URL with a host. */
function isHttpUrl(value: string): boolean {
  if (!HTTP_URL_PATTERN.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A checkbox: present ("on") when checked, absent when not. */
const toggle = z
  .string()
  .optional()
  .transform((value) => value === 'on' || value === 'true');

export const ProfileFormSchema = z.object({
  username: z
    .string()
    .trim()
    .min(MIN_USERNAME_LENGTH, PROFILE_MESSAGES.usernameLength)
    .max(MAX_USERNAME_LENGTH, PROFILE_MESSAGES.usernameTooLong)
    .regex(USERNAME_PATTERN, PROFILE_MESSAGES.usernameCharacters),
  first_name: optionalText(MAX_NAME_LENGTH, PROFILE_MESSAGES.nameTooLong),
  last_name: optionalText(MAX_NAME_LENGTH, PROFILE_MESSAGES.nameTooLong),
  phone: optionalText(MAX_PHONE_LENGTH, PROFILE_MESSAGES.phoneTooLong),
  location: optionalText(MAX_LOCATION_LENGTH, PROFILE_MESSAGES.locationTooLong),
  website: z
    .string()
    .trim()
    .max(MAX_WEBSITE_LENGTH, PROFILE_MESSAGES.website)
    .optional()
    .refine((value) => !value || isHttpUrl(value), PROFILE_MESSAGES.website)
    .transform((value) => (value ? value : null)),
  // Not trimmed at the ends beyond whitespace: line breaks inside the bio are kept.
  bio: optionalText(MAX_BIO_LENGTH, PROFILE_MESSAGES.bioTooLong),
});
export type ProfileForm = z.infer<typeof ProfileFormSchema>;

export const PrivacyFormSchema = z.object({
  profile_visibility: z.enum(['public', 'members', 'private'], 'Choose who can see your profile'),
  show_email: toggle,
  show_phone: toggle,
});
export type PrivacyForm = z.infer<typeof PrivacyFormSchema>;

export const NotificationsFormSchema = z.object({
  email_notifications: toggle,
  push_notifications: toggle,
  marketing_emails: toggle,
  weekly_digest: toggle,
});
export type NotificationsForm = z.infer<typeof NotificationsFormSchema>;

export const PROFILE_INTENTS = ['profile', 'privacy', 'notifications'] as const;
export type ProfileIntent = (typeof PROFILE_INTENTS)[number];

export const ProfileActionSchema = z.discriminatedUnion('intent', [
  ProfileFormSchema.extend({ intent: z.literal('profile') }),
  PrivacyFormSchema.extend({ intent: z.literal('privacy') }),
  NotificationsFormSchema.extend({ intent: z.literal('notifications') }),
]);
export type ProfileAction = z.infer<typeof ProfileActionSchema>;

/** The intent a submission claims, for routing an error back to its form. */
export function parseProfileIntent(value: FormDataEntryValue | null | undefined): ProfileIntent {
  return PROFILE_INTENTS.find((intent) => intent === value) ?? 'profile';
}

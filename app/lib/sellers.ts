/** Storefront URLs (`/sellers/{username}?page=n`), shared by the page and every link to it. */
import { USERNAME_PATTERN } from '~/lib/auth-rules';

/** The storefront of `username`; page 1 has no `page` parameter. */
export function storefrontHref(username: string, page = 1): string {
  const path = `/sellers/${encodeURIComponent(username)}`;
  return page > 1 ? `${path}?page=${page}` : path;
}

/** Whether `value` can be a username at all (anything else is a 404 without a query). */
export function isUsernameLike(value: string | undefined): value is string {
  return value !== undefined && value.length >= 3 && value.length <= 30 && USERNAME_PATTERN.test(value);
}

/**
 * How a seller is named, everywhere (storefront, cards, the agent page): their display name where
 * the viewer may see it (`public_profiles` gives it only then), else their username.
 */
export function sellerName(username: string, displayName: string | null | undefined): string {
  return displayName?.trim() || username;
}

/** A profile's audience (`user_settings.profile_visibility`, shown as `public_profiles.visibility`). */
export type ProfileVisibility = 'public' | 'members' | 'private';

export function toProfileVisibility(value: string | null | undefined): ProfileVisibility {
  return value === 'members' || value === 'private' ? value : 'public';
}

/**
 * Whether a viewer may open a profile of this audience: everyone a public one, signed-in users a
 * members-only one, nobody but its owner a private one (the rule of `public.public_profiles`;
 * for rows read anonymously and shared, such as the catalogue's cards, where the owner's own
 * exception is not known).
 */
export function profileOpenTo(visibility: ProfileVisibility, signedIn: boolean): boolean {
  return visibility === 'public' || (visibility === 'members' && signedIn);
}

/** What a page says instead of a profile its viewer may not see. */
export const HIDDEN_PROFILE_MESSAGE: Record<
  Exclude<ProfileVisibility, 'public'>,
  { title: string; message: string }
> = {
  members: {
    title: 'Members only',
    message: 'This seller shows their profile to signed-in members only. Sign in to see it.',
  },
  private: {
    title: 'This profile is private',
    message: 'This seller keeps their profile private. Their agents are still on the marketplace.',
  },
};

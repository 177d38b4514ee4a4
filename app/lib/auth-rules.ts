/** Length rules of §5 and §9, without zod, for markup that needs them on every page. */
export const MIN_PASSWORD_LENGTH = 6;
export const MIN_USERNAME_LENGTH = 3;
export const MAX_USERNAME_LENGTH = 30;
/**
 * Characters a username may use: ASCII letters, digits and underscores, as the database's
 * users_username_format check (docs/decisions/010-usernames-and-look-alikes.md).
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
export const USERNAME_CHARACTERS_MESSAGE = 'Username may contain only letters, numbers and underscores';
/** An absolute http(s) URL with a host and no whitespace, as the database's is_http_url(). */
export const HTTP_URL_PATTERN = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/** The password and username length rules (docs/product.md, "Signing in"), without zod, for markup that needs them on every page. */
export const MIN_PASSWORD_LENGTH = 6;
export const MIN_USERNAME_LENGTH = 3;
export const MAX_USERNAME_LENGTH = 30;
/**
 * Characters a username may use: ASCII letters, digits and underscores, as the database's
 * users_username_format check (docs/decisions/010-usernames-and-look-alikes.md).
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
export const USERNAME_CHARACTERS_MESSAGE = 'Username may contain only letters, numbers and underscores';
/** The rule as a hint under the field, shown before anyone submits. */
export const USERNAME_HINT = `Letters, numbers and underscores; at least ${MIN_USERNAME_LENGTH} characters.`;
/**
 * The username field's own constraints (sign-up and profile): USERNAME_PATTERN as an HTML
 * `pattern` (which matches the whole value by itself) and the lengths. The server enforces the
 * same rules whatever the browser does.
 */
export const USERNAME_INPUT = {
  pattern: USERNAME_PATTERN.source.replace(/^\^/, '').replace(/\$$/, ''),
  minLength: MIN_USERNAME_LENGTH,
  maxLength: MAX_USERNAME_LENGTH,
  title: USERNAME_HINT,
} as const;
/** An absolute http(s) URL with a host and no whitespace, as the database's is_http_url(). */
export const HTTP_URL_PATTERN = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/**
 * Names that speak as the platform ("AgentMarket Official Support") are refused by the database
 * (check `users_names_claim_no_authority`, function `claims_platform_authority`, with look-alikes
 * folded); the app only names the rule when the database refuses it.
 */
export const AUTHORITY_NAME_CONSTRAINT = 'users_names_claim_no_authority';
export const AUTHORITY_NAME_MESSAGE =
  'Names cannot include AgentMarket, official, admin, moderator, staff or verified.';

/** Whether a Data API error is the database refusing a name that speaks as the platform. */
export const refusesAuthorityName = (error: { code?: string; message?: string } | null): boolean =>
  error?.code === '23514' && (error.message ?? '').includes(AUTHORITY_NAME_CONSTRAINT);

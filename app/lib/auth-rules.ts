/** Length rules of §5 and §9, without zod, for markup that needs them on every page. */
export const MIN_PASSWORD_LENGTH = 6;
export const MIN_USERNAME_LENGTH = 3;
export const MAX_USERNAME_LENGTH = 30;

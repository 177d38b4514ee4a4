/**
 * Sign-in and sign-up rules (docs/product.md, "Signing in"), shared by the server actions and the browser. The first
 * failing rule gives the one message the form shows.
 */
import { z } from 'zod';

import {
  MAX_USERNAME_LENGTH,
  MIN_PASSWORD_LENGTH,
  MIN_USERNAME_LENGTH,
  USERNAME_CHARACTERS_MESSAGE,
  USERNAME_PATTERN,
} from '~/lib/auth-rules';

export { MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH, MIN_USERNAME_LENGTH };

export const AUTH_MESSAGES = {
  required: 'All fields are required',
  passwordLength: 'Password must be at least 6 characters long',
  usernameLength: 'Username must be at least 3 characters long',
  usernameTooLong: 'Username must be at most 30 characters long',
  usernameCharacters: USERNAME_CHARACTERS_MESSAGE,
  email: 'Please enter a valid email address.',
} as const;

const email = z.string().trim().toLowerCase().min(1, AUTH_MESSAGES.required).pipe(z.email(AUTH_MESSAGES.email));
const password = z.string().min(1, AUTH_MESSAGES.required).min(MIN_PASSWORD_LENGTH, AUTH_MESSAGES.passwordLength);

/** Where to go after signing in: validated again by safeRedirectPath on the server. */
const redirectTo = z.string().max(2048).optional();

export const SignInSchema = z.object({ email, password, redirectTo });

export const SignUpSchema = z.object({
  email,
  password,
  username: z
    .string()
    .trim()
    .min(1, AUTH_MESSAGES.required)
    .min(MIN_USERNAME_LENGTH, AUTH_MESSAGES.usernameLength)
    .max(MAX_USERNAME_LENGTH, AUTH_MESSAGES.usernameTooLong)
    .regex(USERNAME_PATTERN, AUTH_MESSAGES.usernameCharacters),
  accountType: z.enum(['buyer', 'seller']).catch('buyer'),
  redirectTo,
});

export const EmailOnlySchema = z.object({ email });

/** A new password typed twice: `password` (the sign-up rule) and `confirmPassword`. */
export const newPasswordFields = { password, confirmPassword: z.string() };

/** The check that the two match, on any schema with `newPasswordFields`. */
export function passwordsMatch<T extends { password: string; confirmPassword: string }>(value: T): boolean {
  return value.password === value.confirmPassword;
}
export const PASSWORDS_DIFFER = { message: 'Passwords do not match', path: ['confirmPassword'] };

export const NewPasswordSchema = z.object(newPasswordFields).refine(passwordsMatch, PASSWORDS_DIFFER);

/**
 * All fields missing → one 'All fields are required', as the form words it, rather
 * than a message per field. Takes the zod error, or the messages of a form submission.
 */
export function firstMessage(error: z.ZodError | readonly string[]): string {
  const messages = error instanceof z.ZodError ? error.issues.map((issue) => issue.message) : error;
  if (messages.includes(AUTH_MESSAGES.required)) return AUTH_MESSAGES.required;
  return messages[0] ?? AUTH_MESSAGES.required;
}

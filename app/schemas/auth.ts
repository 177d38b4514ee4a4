/**
 * Sign-in and sign-up rules (docs/product.md, "Signing in"), shared by the server actions and the browser. The first
 * failing rule of each field gives its message; the summary above the form names every field that failed
 * (`authErrorSummary`).
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
 * One line for a failed form: 'All fields are required' as soon as one is missing (the
 * specification's words), else the first message. Takes the zod error, or the messages of a
 * form submission.
 */
export function firstMessage(error: z.ZodError | readonly string[]): string {
  const messages = error instanceof z.ZodError ? error.issues.map((issue) => issue.message) : error;
  if (messages.includes(AUTH_MESSAGES.required)) return AUTH_MESSAGES.required;
  return messages[0] ?? AUTH_MESSAGES.required;
}

/** The auth forms' fields, in the order the forms show them, as their labels name them. */
const AUTH_FIELD_LABELS = { username: 'Username', email: 'Email', password: 'Password' } as const;

/**
 * The summary above an auth form that did not validate. One field wrong: its message alone. Otherwise
 * 'All fields are required' when one is missing (else "Please correct these 2 fields:"), and a list
 * naming every invalid field with its own message ('Email is required'), in the form's order.
 * The same on the server (the action's answer) and in the browser (its check before posting).
 */
export function authErrorSummary(error: Record<string, string[] | null> | null | undefined): {
  message: string;
  hints?: string[];
} {
  const failed = Object.entries(AUTH_FIELD_LABELS).flatMap(([name, label]) => {
    const first = error?.[name]?.[0];
    if (!first) return [];
    return [first === AUTH_MESSAGES.required ? `${label} is required` : first];
  });
  const message = firstMessage(Object.values(error ?? {}).flatMap((messages) => messages ?? []));
  if (failed.length === 0 || (failed.length === 1 && failed[0] === message)) return { message };
  return { message: message === AUTH_MESSAGES.required ? message : severalFields(failed.length), hints: failed };
}

/** The line above the list when several fields failed and none is missing. */
export const severalFields = (count: number) => `Please correct these ${count} fields:`;

/**
 * The form pipeline: FormData → zod schema (through Conform) → typed value, or a FormResult with
 * field errors and what was typed (secrets left out), the one shape every form component reads.
 */
import { describe, expect, it } from 'vitest';
import { fieldError, fieldValue, formNotice } from '~/lib/form-result';
import { AUTH_MESSAGES, NewPasswordSchema, SignUpSchema, firstMessage } from '~/schemas/auth';
import { PROFILE_MESSAGES, ProfileActionSchema } from '~/schemas/profile';
import { formError, formSuccess, parseForm } from './forms.server';

function form(entries: [string, string][]): FormData {
  const formData = new FormData();
  for (const [name, value] of entries) formData.append(name, value);
  return formData;
}

const signUp: [string, string][] = [
  ['email', ' Ada@Example.COM '],
  ['password', 'secret-123'],
  ['username', ' ada '],
  ['accountType', 'seller'],
  ['redirectTo', '/marketplace'],
];

describe('parseForm', () => {
  it('gives the typed value of a valid submission', () => {
    const submission = parseForm(form(signUp), SignUpSchema);
    expect(submission.status).toBe('success');
    if (submission.status !== 'success') return;
    expect(submission.value).toEqual({
      email: 'ada@example.com',
      password: 'secret-123',
      username: 'ada',
      accountType: 'seller',
      redirectTo: '/marketplace',
    });
  });

  it('reads form strings as they come: an unchecked box is absent, a checked one is "on"', () => {
    const submission = parseForm(
      form([
        ['intent', 'notifications'],
        ['email_notifications', 'on'],
        ['weekly_digest', 'on'],
      ]),
      ProfileActionSchema,
    );
    expect(submission.status === 'success' && submission.value).toEqual({
      intent: 'notifications',
      email_notifications: true,
      push_notifications: false,
      marketing_emails: false,
      weekly_digest: true,
    });
  });

  it("ignores names in Conform's path syntax and its reserved intent fields", () => {
    // `a[100000000]` would make Conform fill an array of 10^8 entries; `__intent__` that is not
    // JSON would make it throw (a 500). Neither belongs to any form of ours.
    const submission = parseForm(
      form([...signUp, ['a[100000000]', 'x'], ['list[0].name', 'x'], ['__intent__', 'not json'], ['__state__', '{']]),
      SignUpSchema,
    );
    expect(submission.status).toBe('success');
    expect(Object.keys(submission.payload).sort()).toEqual([
      'accountType',
      'email',
      'password',
      'redirectTo',
      'username',
    ]);
  });
});

describe('formError', () => {
  it('answers an invalid submission with 400, field errors and what was typed, never the password', () => {
    const submission = parseForm(
      form([...signUp.filter(([name]) => name !== 'password'), ['password', 'abc']]),
      SignUpSchema,
    );
    const { data: result, init } = formError(submission, { summarize: firstMessage });
    expect(init?.status).toBe(400);
    expect(result).toMatchObject({ ok: false, status: 'error', message: AUTH_MESSAGES.passwordLength });
    expect(fieldError(result, 'password')).toBe(AUTH_MESSAGES.passwordLength);
    expect(fieldError(result, 'email')).toBeUndefined();
    // Kept as typed (not as parsed), so the form comes back exactly as it was.
    expect(fieldValue(result, 'email')).toBe(' Ada@Example.COM ');
    expect(fieldValue(result, 'username')).toBe(' ada ');
    expect(fieldValue(result, 'redirectTo')).toBe('/marketplace');
    expect(result.initialValue).not.toHaveProperty('password');
    expect(JSON.stringify(result)).not.toContain('abc');
    expect(formNotice(result)).toEqual({ kind: 'error', message: AUTH_MESSAGES.passwordLength, hints: undefined });
  });

  it('sums up several errors with the summary the form asks for', () => {
    const submission = parseForm(
      form([
        ['email', ''],
        ['password', ''],
        ['username', ''],
      ]),
      SignUpSchema,
    );
    expect(formError(submission, { summarize: firstMessage }).data.message).toBe(AUTH_MESSAGES.required);
    // Without one, the first error of the form.
    expect(formError(submission).data.message).toBe(AUTH_MESSAGES.required);
  });

  it('reports an error of the whole form under its field when the schema names one', () => {
    const submission = parseForm(
      form([
        ['password', 'secret-123'],
        ['confirmPassword', 'secret-456'],
      ]),
      NewPasswordSchema,
    );
    const { data: result } = formError(submission);
    expect(fieldError(result, 'confirmPassword')).toBe('Passwords do not match');
    expect(result.initialValue).toEqual({});
  });

  it('answers a valid submission refused later with its own message, status, headers and hints', () => {
    const submission = parseForm(form(signUp), SignUpSchema);
    const { data: result, init } = formError(submission, {
      message: 'Too many attempts.',
      hints: ['Wait a minute'],
      status: 429,
      headers: { 'Retry-After': '60' },
    });
    expect(init?.status).toBe(429);
    expect(new Headers(init?.headers).get('Retry-After')).toBe('60');
    expect(result).toMatchObject({ ok: false, message: 'Too many attempts.', hints: ['Wait a minute'] });
    // A message of its own is a form-level error in Conform's terms.
    expect(result.error).toEqual({ '': ['Too many attempts.'] });
    expect(fieldValue(result, 'username')).toBe(' ada ');
  });

  it('puts errors found after validation under their fields', () => {
    const submission = parseForm(
      form([
        ['intent', 'profile'],
        ['username', 'taken_name'],
        ['location', 'Paris'],
      ]),
      ProfileActionSchema,
    );
    const { data: result, init } = formError(submission, {
      message: PROFILE_MESSAGES.usernameTaken,
      fieldErrors: { username: [PROFILE_MESSAGES.usernameTaken] },
      status: 409,
    });
    expect(init?.status).toBe(409);
    expect(result.message).toBe(PROFILE_MESSAGES.usernameTaken);
    expect(fieldError(result, 'username')).toBe(PROFILE_MESSAGES.usernameTaken);
    expect(fieldValue(result, 'intent')).toBe('profile');
    expect(fieldValue(result, 'location')).toBe('Paris');
  });

  it('keeps the last of a name sent twice, as the form would show it', () => {
    const submission = parseForm(
      form([
        ['email', 'first@example.com'],
        ['email', 'second@example.com'],
      ]),
      SignUpSchema,
    );
    const { data: result } = formError(submission);
    expect(fieldValue(result, 'email')).toBe('second@example.com');
    expect(fieldError(result, 'email')).toBeDefined();
  });
});

describe('formSuccess', () => {
  it('answers with the message and an empty form', () => {
    const submission = parseForm(form(signUp), SignUpSchema);
    const { data: result } = formSuccess(submission, 'Check your email.');
    expect(result).toMatchObject({ ok: true, status: 'success', message: 'Check your email.', initialValue: null });
    expect(formNotice(result)).toEqual({ kind: 'success', message: 'Check your email.', hints: undefined });
    expect(fieldValue(result, 'email')).toBeUndefined();
  });
});

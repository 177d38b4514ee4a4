import { describe, expect, it } from 'vitest';
import { parseFields } from '~/lib/forms';
import { AUTH_MESSAGES, SignInSchema, SignUpSchema, authErrorSummary, firstMessage, severalFields } from './auth';

function signUpMessage(input: Record<string, string>) {
  const result = SignUpSchema.safeParse(input);
  return result.success ? null : firstMessage(result.error);
}

describe('sign-up validation', () => {
  const valid = { email: 'Ada@Example.COM ', password: 'secret1', username: ' ada ', accountType: 'seller' };

  it('trims and lowercases the email, trims the username', () => {
    expect(SignUpSchema.parse(valid)).toMatchObject({
      email: 'ada@example.com',
      username: 'ada',
      accountType: 'seller',
    });
  });

  it('defaults the account type to buyer and never allows admin', () => {
    expect(SignUpSchema.parse({ ...valid, accountType: undefined }).accountType).toBe('buyer');
    expect(SignUpSchema.parse({ ...valid, accountType: 'admin' }).accountType).toBe('buyer');
  });

  it.each([
    [{ email: '', password: '', username: '' }, AUTH_MESSAGES.required],
    [{ ...valid, email: '' }, AUTH_MESSAGES.required],
    [{ ...valid, username: '   ' }, AUTH_MESSAGES.required],
    [{ ...valid, password: 'abc' }, AUTH_MESSAGES.passwordLength],
    [{ ...valid, username: 'ab' }, AUTH_MESSAGES.usernameLength],
    [{ ...valid, email: 'nope' }, AUTH_MESSAGES.email],
    [{ ...valid, username: 'a b c' }, AUTH_MESSAGES.usernameCharacters],
    [{ ...valid, username: 'ada.l' }, AUTH_MESSAGES.usernameCharacters],
    [{ ...valid, username: 'd\u0435mo_seller' }, AUTH_MESSAGES.usernameCharacters],
  ])('rejects %j with its message', (input, message) => {
    expect(signUpMessage(input)).toBe(message);
  });

  it('accepts exactly 6 characters of password and 3 of username', () => {
    expect(signUpMessage({ ...valid, password: '123456', username: 'abc' })).toBeNull();
  });
});

describe('sign-in validation', () => {
  it('requires both fields', () => {
    const result = SignInSchema.safeParse({ email: '', password: '' });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstMessage(result.error)).toBe(AUTH_MESSAGES.required);
  });
});

describe('the summary above a form that did not validate', () => {
  const summary = (
    fields: Record<string, string>,
    schema: typeof SignUpSchema | typeof SignInSchema = SignUpSchema,
  ) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const submission = parseFields(form, schema);
    return authErrorSummary(submission.status === 'success' ? null : submission.error);
  };

  it('names every invalid field, in the order the form shows them', () => {
    expect(summary({ username: '', email: '', password: '' })).toEqual({
      message: AUTH_MESSAGES.required,
      hints: ['Username is required', 'Email is required', 'Password is required'],
    });
    expect(summary({ username: 'ab', email: 'nope', password: 'abc' })).toEqual({
      message: severalFields(3),
      hints: [AUTH_MESSAGES.usernameLength, AUTH_MESSAGES.email, AUTH_MESSAGES.passwordLength],
    });
    expect(summary({ username: 'ada', email: '', password: 'abc' })).toEqual({
      message: AUTH_MESSAGES.required,
      hints: ['Email is required', AUTH_MESSAGES.passwordLength],
    });
    expect(summary({ email: '', password: '' }, SignInSchema)).toEqual({
      message: AUTH_MESSAGES.required,
      hints: ['Email is required', 'Password is required'],
    });
  });

  it('is the field’s own message alone when one field is wrong and the message names it', () => {
    expect(summary({ username: 'ada', email: 'ada@example.com', password: 'abc' })).toEqual({
      message: AUTH_MESSAGES.passwordLength,
    });
    // 'All fields are required' does not say which: the list does.
    expect(summary({ username: 'ada', email: 'ada@example.com', password: '' })).toEqual({
      message: AUTH_MESSAGES.required,
      hints: ['Password is required'],
    });
  });
});

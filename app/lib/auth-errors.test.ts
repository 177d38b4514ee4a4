import { describe, expect, it } from 'vitest';
import { UNEXPECTED_ERROR, mapAuthError } from './auth-errors';

describe('mapAuthError', () => {
  it.each([
    [
      'Invalid login credentials',
      'The email or password you entered is incorrect. Please check your credentials and try again.',
    ],
    [
      'Email not confirmed',
      "Please check your email and click the confirmation link before signing in. Check your spam folder if you don't see the email.",
    ],
    [
      'User already registered',
      'An account with this email already exists. Please sign in instead or use a different email address.',
    ],
    ['Password should be at least 6 characters.', 'Password must be at least 6 characters long.'],
    ['Unable to validate email address: invalid format', 'Please enter a valid email address.'],
    ['Signups not allowed for this instance', 'Signups not allowed for this instance'],
    ['Signup is disabled', 'New account registration is currently disabled. Please contact support.'],
    ['Email rate limit exceeded', 'Too many emails sent. Please wait a few minutes before trying again.'],
    [
      'User is banned',
      'This account has been suspended by an administrator, so you cannot sign in. Please contact support if you think this is a mistake.',
    ],
    ['Something odd', 'Something odd'],
  ])('maps %j', (raw, expected) => {
    expect(mapAuthError(raw).message).toBe(expected);
  });

  it('gives hints for wrong credentials and unconfirmed email', () => {
    expect(mapAuthError('Invalid login credentials').hints).toHaveLength(3);
    expect(mapAuthError('Email not confirmed').hints).toHaveLength(3);
    expect(mapAuthError('User already registered').hints).toBeUndefined();
  });

  it('falls back to the generic message', () => {
    expect(mapAuthError('').message).toBe(UNEXPECTED_ERROR);
    expect(mapAuthError(undefined).message).toBe(UNEXPECTED_ERROR);
  });
});

import { encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_CONFIG, duration, loadAuthConfig } from './config';
import { globToRegExp, isAllowedRedirect } from './redirects';
import { newTotpSecret, totpCode, verifyTotp } from './totp';
import { parsePkce, validateEmail } from './validation';

describe('totp', () => {
  // RFC 6238 appendix B, SHA-1 secret "12345678901234567890", truncated to 6 digits.
  const secret = encodeBase32UpperCaseNoPadding(Buffer.from('12345678901234567890'));
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ])('at %i gives %s', (time, code) => {
    expect(totpCode(secret, time)).toBe(code);
  });
  it('accepts one step of drift and nothing more', () => {
    expect(verifyTotp(secret, totpCode(secret, 1000 - 30), 1000)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, 1000 + 30), 1000)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, 1000 + 90), 1000)).toBe(false);
    expect(verifyTotp(secret, 'abcdef', 1000)).toBe(false);
  });
  it('makes a new 160-bit base32 secret each time, which its own codes verify', () => {
    const fresh = newTotpSecret();
    expect(fresh).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(fresh);
    expect(verifyTotp(fresh, totpCode(fresh, 1000), 1000)).toBe(true);
    expect(verifyTotp(fresh.toLowerCase(), totpCode(fresh, 1000), 1000)).toBe(true);
  });
});

describe('redirects', () => {
  const config = {
    ...DEFAULT_AUTH_CONFIG,
    siteUrl: 'https://market.example.com',
    additionalRedirectUrls: ['https://*.preview.example.com/**'],
  };
  it.each([
    ['https://market.example.com/auth/callback', true],
    ['http://localhost:5173/x', false],
    ['http://127.0.0.1:9999/x', false],
    ['https://market.example.com:8443/x', false],
    ['https://pr-1.preview.example.com/auth/callback?next=/a', true],
    ['https://evil.example.org/', false],
    ['https://a.b.preview.example.com/', false],
    ['javascript:alert(1)', false],
    ['http://2130706433/', false],
    ['not a url', false],
    ['https://app.test/any', true],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedRedirect(url, config, 'https://app.test')).toBe(allowed);
  });
  it('globs keep * inside one segment', () => {
    expect(globToRegExp('http://x.io/*').test('http://x.io/a/b')).toBe(false);
    expect(globToRegExp('http://x.io/**').test('http://x.io/a/b')).toBe(true);
  });
});

describe('validation', () => {
  it('lower-cases valid emails and refuses bad ones', () => {
    expect(validateEmail('Ada@Example.COM')).toBe('ada@example.com');
    expect(validateEmail('a@localhost')).toBe('a@localhost');
    expect(() => validateEmail('not-an-email')).toThrow('Unable to validate email address: invalid format');
    expect(() => validateEmail('')).toThrow('An email address is required');
  });
  it('checks PKCE pairs', () => {
    expect(parsePkce(null, null)).toBeNull();
    expect(parsePkce('a'.repeat(43), 'S256')).toEqual({ codeChallenge: 'a'.repeat(43), codeChallengeMethod: 's256' });
    expect(() => parsePkce('a'.repeat(43), null)).toThrow(
      'PKCE flow requires code_challenge_method and code_challenge',
    );
    expect(() => parsePkce('short', 's256')).toThrow('code challenge has to be between 43 and 128 characters');
  });
  it('parses CLI durations', () => {
    expect(duration('1s')).toBe(1);
    expect(duration('1m30s')).toBe(90);
    expect(duration('24h')).toBe(86400);
    expect(duration('soon')).toBeUndefined();
  });
});

describe('rate limit settings', () => {
  it('reads [auth.rate_limit] from the project config.toml; overrides win key by key', () => {
    const config = loadAuthConfig('supabase', { rateLimits: { tokenRefresh: 7 } });
    expect(config.rateLimits).toEqual({
      emailSent: 30,
      anonymousUsers: 30,
      tokenRefresh: 7,
      signInSignUps: 30,
      tokenVerifications: 30,
      accountFailuresBeforeDelay: 10,
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  NotificationsFormSchema,
  PrivacyFormSchema,
  PROFILE_MESSAGES,
  ProfileActionSchema,
  ProfileFormSchema,
  parseProfileIntent,
  parseProfileTab,
} from './profile';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('parseProfileTab', () => {
  it.each([
    ['profile', 'profile'],
    ['privacy', 'privacy'],
    ['notifications', 'notifications'],
    ['security', 'security'],
    ['data', 'data'],
    [null, 'profile'],
    ['', 'profile'],
    ['Security', 'profile'],
    ['admin', 'profile'],
  ])('%j → %s', (value, tab) => expect(parseProfileTab(value)).toBe(tab));
});

describe('parseProfileIntent', () => {
  it('knows the three forms and falls back to profile', () => {
    expect(parseProfileIntent('privacy')).toBe('privacy');
    expect(parseProfileIntent('notifications')).toBe('notifications');
    expect(parseProfileIntent('delete')).toBe('profile');
    expect(parseProfileIntent(null)).toBe('profile');
  });
});

describe('ProfileFormSchema', () => {
  const valid = { username: 'new_name', first_name: 'Ada', last_name: 'Lovelace', bio: 'Hello' };

  it('trims the username and turns empty optional fields into null', () => {
    const result = ProfileFormSchema.parse({
      ...valid,
      username: '  ada_l1  ',
      phone: '  ',
      website: '',
      location: '',
    });
    expect(result).toEqual({
      username: 'ada_l1',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: null,
      location: null,
      website: null,
      bio: 'Hello',
    });
  });

  it('treats missing optional fields as null', () => {
    expect(ProfileFormSchema.parse({ username: 'abc' })).toMatchObject({ first_name: null, bio: null, website: null });
  });

  it.each([
    ['ab', PROFILE_MESSAGES.usernameLength],
    ['   ab   ', PROFILE_MESSAGES.usernameLength],
    ['a'.repeat(31), PROFILE_MESSAGES.usernameTooLong],
    ['has space', PROFILE_MESSAGES.usernameCharacters],
    ['semi;colon', PROFILE_MESSAGES.usernameCharacters],
    // Look-alikes outside ASCII and invisible characters (ADR 010): refused before the database.
    ['ada.l-1', PROFILE_MESSAGES.usernameCharacters],
    ['zoë', PROFILE_MESSAGES.usernameCharacters],
    ['d\u0435mo_seller', PROFILE_MESSAGES.usernameCharacters],
    ['demo_seller\u200b', PROFILE_MESSAGES.usernameCharacters],
  ])('refuses the username %j', (username, message) => {
    expect(firstMessage(ProfileFormSchema.safeParse({ username }))).toBe(message);
  });

  it('accepts 3 and 30 character usernames with ASCII letters, numbers and underscores', () => {
    expect(ProfileFormSchema.safeParse({ username: 'a_1' }).success).toBe(true);
    expect(ProfileFormSchema.safeParse({ username: 'A_b_C_d'.padEnd(30, 'x') }).success).toBe(true);
  });

  it('enforces the 500 character bio', () => {
    expect(ProfileFormSchema.safeParse({ username: 'abc', bio: 'b'.repeat(500) }).success).toBe(true);
    expect(firstMessage(ProfileFormSchema.safeParse({ username: 'abc', bio: 'b'.repeat(501) }))).toBe(
      PROFILE_MESSAGES.bioTooLong,
    );
  });

  it.each([
    ['https://example.com', true],
    ['http://example.com/path?q=1', true],
    ['', true],
    ['example.com', false],
    ['ftp://example.com', false],
    ['javascript:alert(1)', false],
    ['https://', false],
    ['https://exa mple.com', false],
    ['https://example.com/a b', false],
  ])('website %j valid: %s', (website, ok) => {
    const result = ProfileFormSchema.safeParse({ username: 'abc', website });
    expect(result.success).toBe(ok);
    if (!ok) expect(firstMessage(result)).toBe(PROFILE_MESSAGES.website);
  });

  it.each([
    ['phone', 30, PROFILE_MESSAGES.phoneTooLong],
    ['first_name', 60, PROFILE_MESSAGES.nameTooLong],
    ['last_name', 60, PROFILE_MESSAGES.nameTooLong],
    ['location', 100, PROFILE_MESSAGES.locationTooLong],
  ])('limits %s to %i characters', (field, max, message) => {
    expect(ProfileFormSchema.safeParse({ username: 'abc', [field]: 'x'.repeat(max) }).success).toBe(true);
    expect(firstMessage(ProfileFormSchema.safeParse({ username: 'abc', [field]: 'x'.repeat(max + 1) }))).toBe(message);
  });
});

describe('settings schemas', () => {
  it('reads checkboxes as present (on) or absent', () => {
    expect(PrivacyFormSchema.parse({ profile_visibility: 'members', show_email: 'on' })).toEqual({
      profile_visibility: 'members',
      show_email: true,
      show_phone: false,
    });
    expect(NotificationsFormSchema.parse({ push_notifications: 'on', weekly_digest: 'on' })).toEqual({
      email_notifications: false,
      push_notifications: true,
      marketing_emails: false,
      weekly_digest: true,
    });
  });

  it('accepts only the three visibility values', () => {
    for (const value of ['public', 'members', 'private']) {
      expect(PrivacyFormSchema.safeParse({ profile_visibility: value }).success).toBe(true);
    }
    expect(PrivacyFormSchema.safeParse({ profile_visibility: 'friends' }).success).toBe(false);
    expect(PrivacyFormSchema.safeParse({}).success).toBe(false);
  });
});

describe('ProfileActionSchema', () => {
  it('dispatches on intent', () => {
    expect(ProfileActionSchema.parse({ intent: 'profile', username: 'abc' }).intent).toBe('profile');
    expect(ProfileActionSchema.parse({ intent: 'privacy', profile_visibility: 'private' })).toMatchObject({
      intent: 'privacy',
      profile_visibility: 'private',
    });
    expect(ProfileActionSchema.parse({ intent: 'notifications' })).toMatchObject({
      intent: 'notifications',
      email_notifications: false,
    });
  });

  it('refuses an unknown or missing intent', () => {
    expect(ProfileActionSchema.safeParse({ intent: 'delete_account' }).success).toBe(false);
    expect(ProfileActionSchema.safeParse({ username: 'abc' }).success).toBe(false);
  });

  it('ignores fields a form does not own (no user_type or email)', () => {
    const result = ProfileActionSchema.parse({
      intent: 'profile',
      username: 'abc',
      user_type: 'admin',
      email: 'x@y.z',
    });
    expect(result).not.toHaveProperty('user_type');
    expect(result).not.toHaveProperty('email');
  });
});

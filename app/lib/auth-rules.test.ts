import { describe, expect, it } from 'vitest';
import { USERNAME_INPUT, USERNAME_PATTERN } from './auth-rules';

describe('the username field shows the server rule before submitting', () => {
  // A browser compiles `pattern` as ^(?:…)$ with the v flag.
  const browserPattern = new RegExp(`^(?:${USERNAME_INPUT.pattern})$`, 'v');

  it.each(['ada', 'Ada_Lovelace_1815', '___', 'a b', 'ada.l', 'd\u0435mo', 'ada!', ''])(
    'pattern agrees with the server on %j',
    (value) => {
      expect(browserPattern.test(value)).toBe(USERNAME_PATTERN.test(value));
    },
  );

  it('says the rule in words and carries the lengths', () => {
    expect(USERNAME_INPUT).toMatchObject({
      minLength: 3,
      maxLength: 30,
      title: 'Letters, numbers and underscores; at least 3 characters.',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { pluralize } from './plural';

describe('pluralize', () => {
  it.each([
    [0, 'agent', '0 agents'],
    [1, 'agent', '1 agent'],
    [2, 'agent', '2 agents'],
    [1, 'review', '1 review'],
    [1, 'purchase', '1 purchase'],
    [1, 'point', '1 point'],
    [1234, 'purchase', '1,234 purchases'],
  ])('%d %s → %s', (count, noun, expected) => {
    expect(pluralize(count, noun)).toBe(expected);
  });

  it('takes an irregular plural', () => {
    expect(pluralize(2, 'category', 'categories')).toBe('2 categories');
    expect(pluralize(1, 'category', 'categories')).toBe('1 category');
  });
});

import { describe, expect, it } from 'vitest';
import { moderatedMessage, statusActions } from './listing';

describe('statusActions', () => {
  it('offers what each status allows', () => {
    expect(statusActions('draft', false)).toEqual(['publish', 'archive']);
    expect(statusActions('published', false)).toEqual(['unpublish', 'archive']);
    expect(statusActions('archived', false)).toEqual(['publish']);
  });

  it('never offers Publish for an agent a moderator unpublished', () => {
    expect(statusActions('draft', true)).toEqual(['archive']);
    expect(statusActions('archived', true)).toEqual([]);
  });

  it('names the reason and who can publish it again', () => {
    expect(moderatedMessage('Misleading claims')).toBe(
      'An administrator unpublished this agent: Misleading claims. You can still edit it and save it as a draft; only an administrator can publish it again.',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { collectionCountLine, downloadHref, reviewHref } from './collection';

const AGENT = 'a0000000-0000-4000-8000-000000000046';

describe('collection', () => {
  it('says how many agents, in the page wording, singular for one', () => {
    expect(collectionCountLine(0)).toBe('0 AI agents in your collection');
    expect(collectionCountLine(1)).toBe('1 AI agent in your collection');
    expect(collectionCountLine(6)).toBe('6 AI agents in your collection');
    expect(collectionCountLine(1200)).toBe('1,200 AI agents in your collection');
  });

  it('links to the download and to the rating form with a readable return path', () => {
    expect(downloadHref(AGENT)).toBe(`/agent/${AGENT}/download`);
    expect(reviewHref(AGENT)).toBe(`/agent/${AGENT}/review`);
    expect(reviewHref(AGENT, '/dashboard/collection')).toBe(`/agent/${AGENT}/review?returnTo=/dashboard/collection`);
    expect(reviewHref(AGENT, '/dashboard/purchases?status=completed&q=a b')).toBe(
      `/agent/${AGENT}/review?returnTo=/dashboard/purchases%3Fstatus%3Dcompleted%26q%3Da%20b`,
    );
  });
});

/**
 * Generated agent pictures: well-formed URLs only, the same agent always the same picture,
 * different agents different pictures, and the seed's SQL builds exactly the path the app builds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import {
  agentArtworkPath,
  agentArtworkSvg,
  agentPicture,
  artworkInitials,
  parseArtworkParams,
} from '~/lib/agent-artwork';

describe('artwork URLs', () => {
  it('takes the initials of the first two words that are not small words', () => {
    expect(artworkInitials('Month-End Closer')).toBe('ME');
    expect(artworkInitials('The Art of Sales')).toBe('AS');
    expect(artworkInitials('x')).toBe('X');
    expect(artworkInitials('— ✨ —')).toBe('AI');
  });

  it('builds a path the route accepts, and refuses malformed ones', () => {
    const path = agentArtworkPath({
      id: 'a0000000-0000-4000-8000-000000000007',
      name: 'Lead Scorer',
      category: 'Data Analysis',
    });
    expect(path).toBe('/artwork/data-analysis/000000000007/LS.svg');
    const [, , category, seed, file] = path.split('/');
    expect(parseArtworkParams({ category, seed, file })).toEqual({
      category: 'data-analysis',
      seed: '000000000007',
      initials: 'LS',
    });
    for (const bad of [
      { category: 'Data', seed: '1', file: 'AB.svg' },
      { category: 'sales', seed: 'xyz', file: 'AB.svg' },
      { category: 'sales', seed: '1', file: '<script>.svg' },
      { category: 'sales', seed: '1', file: 'ABC.svg' },
      { category: 'sales', seed: '1', file: 'AB.png' },
      { category: 'sales', seed: '12345678901234567', file: 'AB.svg' },
    ]) {
      expect(parseArtworkParams(bad)).toBeNull();
    }
  });

  it('draws the same picture for the same agent and different ones for different agents', () => {
    const one = agentArtworkSvg({ category: 'sales', seed: '000000000001', initials: 'LS' });
    expect(agentArtworkSvg({ category: 'sales', seed: '000000000001', initials: 'LS' })).toBe(one);
    expect(one).toMatch(/^<svg [^>]*width="400" height="300"/);
    expect(one).toContain('>LS</text>');
    const pictures = new Set(
      Array.from({ length: 72 }, (_, n) =>
        agentArtworkSvg({ category: 'sales', seed: String(n + 1).padStart(12, '0'), initials: 'LS' }),
      ),
    );
    expect(pictures.size).toBe(72);
  });

  it('prefers the seller’s thumbnail', () => {
    expect(agentPicture({ id: 'a1', name: 'X', category: 'Sales', thumbnailUrl: '/storage/x.png' })).toBe(
      '/storage/x.png',
    );
    expect(agentPicture({ id: 'a1', name: 'X', category: null, thumbnailUrl: null })).toBe('/artwork/agent/a1/X.svg');
  });
});

describe.skipIf(isHostedTarget)('seeded agents', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
  });
  afterAll(() => target?.close());

  it('each has its own picture, at the path the app would build for it', async () => {
    const { data, error } = await serviceClient(target)
      .from('agents')
      .select('id, name, category, thumbnail_url, images');
    expect(error).toBeNull();
    expect(data!.length).toBeGreaterThanOrEqual(75);
    for (const agent of data!) {
      expect(agent.thumbnail_url, agent.name).toBe(agentArtworkPath(agent));
      expect(agent.images[0]).toBe(agent.thumbnail_url);
    }
    expect(new Set(data!.map((agent) => agent.thumbnail_url)).size).toBe(data!.length);
  });
});

/**
 * Generated agent pictures: well-formed URLs only, the category's motif with the agent's name as
 * its title, the same agent always the same picture, different agents different pictures, and the
 * seed's SQL builds exactly the path the app builds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { agentArtworkPath, agentArtworkSvg, agentPicture, artworkName, parseArtworkParams } from '~/lib/agent-artwork';

describe('artwork URLs', () => {
  it('carries the name’s words, at most 60 characters of whole words', () => {
    expect(artworkName('Month-End Closer')).toBe('Month-End-Closer');
    expect(artworkName('Referral Engine (beta)')).toBe('Referral-Engine-beta');
    expect(artworkName('Café Übersetzer')).toBe('Café-Übersetzer');
    expect(artworkName('— ✨ —')).toBe('Agent');
    const long = artworkName('Word '.repeat(30));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/^(Word-)+Word$/);
  });

  it('builds a path the route accepts, and refuses malformed ones', () => {
    const path = agentArtworkPath({
      id: 'a0000000-0000-4000-8000-000000000007',
      name: 'Lead Scorer',
      category: 'Data Analysis',
    });
    expect(path).toBe('/artwork/data-analysis/000000000007/Lead-Scorer.svg');
    const [, , category, seed, file] = path.split('/');
    expect(parseArtworkParams({ category, seed, file })).toEqual({
      category: 'data-analysis',
      seed: '000000000007',
      name: 'Lead-Scorer',
    });
    // A path stored before names were carried (initials) still draws.
    expect(parseArtworkParams({ category: 'sales', seed: '1', file: 'LS.svg' })).toMatchObject({ name: 'LS' });
    for (const bad of [
      { category: 'Data', seed: '1', file: 'AB.svg' },
      { category: 'sales', seed: 'xyz', file: 'AB.svg' },
      { category: 'sales', seed: '1', file: '<script>.svg' },
      { category: 'sales', seed: '1', file: 'A B.svg' },
      { category: 'sales', seed: '1', file: '-AB.svg' },
      { category: 'sales', seed: '1', file: `${'A'.repeat(61)}.svg` },
      { category: 'sales', seed: '1', file: 'AB.png' },
      { category: 'sales', seed: '12345678901234567', file: 'AB.svg' },
    ]) {
      expect(parseArtworkParams(bad)).toBeNull();
    }
  });

  it('draws the category’s motif with the name as its accessible text, in a few KB', () => {
    const motifs = new Set<string>();
    for (const category of ['marketing', 'data-analysis', 'content-creation', 'sales', 'customer-support', 'finance']) {
      const svg = agentArtworkSvg({ category, seed: '000000000001', name: 'Lead-Scorer' });
      expect(svg).toMatch(/^<svg [^>]*width="400" height="300" role="img" aria-labelledby="t">/);
      expect(svg).toContain(`<title id="t">Lead Scorer: ${category.charAt(0).toUpperCase()}`);
      expect(svg.length).toBeLessThan(4096);
      // Well formed: no element with an attribute twice, nothing from elsewhere.
      for (const tag of svg.match(/<[a-zA-Z][^>]*>/g)!) {
        const names = [...tag.matchAll(/\s([a-zA-Z-:]+)=/g)].map((match) => match[1]);
        expect(new Set(names).size, tag).toBe(names.length);
      }
      expect(svg).not.toMatch(/href|<text|<image|url\((?!#)/);
      motifs.add(svg.slice(svg.indexOf('<g transform="translate(120 88)">')));
    }
    expect(motifs.size).toBe(6);
    expect(agentArtworkSvg({ category: 'legal', seed: '1', name: 'X' })).toContain(
      '<title id="t">X: Legal agent</title>',
    );
  });

  it('draws the same picture for the same agent and different ones for different agents', () => {
    const one = agentArtworkSvg({ category: 'sales', seed: '000000000001', name: 'Lead-Scorer' });
    expect(agentArtworkSvg({ category: 'sales', seed: '000000000001', name: 'Lead-Scorer' })).toBe(one);
    const pictures = new Set(
      Array.from({ length: 72 }, (_, n) =>
        agentArtworkSvg({ category: 'sales', seed: String(n + 1).padStart(12, '0'), name: 'Lead-Scorer' }),
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

/**
 * A package's manifest read from its bytes: a JSON package is the manifest, a ZIP package carries
 * it as agent.json at its root (stored or deflated); a damaged, encrypted or oversized one is
 * refused with a message, never an exception.
 */
import { describe, expect, it } from 'vitest';
import { validPackage, zip } from '../../tests/support/packages';
import { readAgentPackage } from '~/server/agent-package.server';
import { readZipEntry } from '~/server/zip.server';

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('readAgentPackage', () => {
  it('reads a JSON package and agent.json of a ZIP package, deflated or stored', () => {
    expect(readAgentPackage(json(validPackage()), 'json')).toMatchObject({
      ok: true,
      manifest: { name: 'Quote Checker' },
    });
    for (const method of [0, 8] as const) {
      const archive = zip({ 'docs/guide.md': json('#'), 'agent.json': json(validPackage()) }, { method });
      expect(readAgentPackage(archive, 'zip'), `method ${method}`).toMatchObject({
        ok: true,
        manifest: { tools: [{ name: 'check_quote' }] },
      });
    }
  });

  it('refuses what is not a valid manifest, saying why', () => {
    expect(readAgentPackage(new TextEncoder().encode('{"name":'), 'json')).toEqual({
      ok: false,
      message: 'The package is not valid JSON (UTF-8).',
    });
    expect(readAgentPackage(zip({ 'agent.json': new TextEncoder().encode('nope') }), 'zip')).toEqual({
      ok: false,
      message: 'agent.json is not valid JSON (UTF-8).',
    });
    expect(readAgentPackage(zip({ 'manifest.json': json(validPackage()) }), 'zip')).toEqual({
      ok: false,
      message: 'The ZIP archive has no agent.json at its root: a ZIP package carries its manifest there.',
    });
    // Two agent.json: unzip tools differ on which one wins, so neither is taken.
    const twice = zip({ 'agent.json': json(validPackage()), 'agent.jsoX': json(validPackage()) });
    twice.set(new TextEncoder().encode('agent.json'), Buffer.from(twice).lastIndexOf('agent.jsoX'));
    expect(readAgentPackage(twice, 'zip')).toEqual({
      ok: false,
      message: 'The ZIP archive holds agent.json twice: a ZIP package carries one manifest.',
    });
    expect(readAgentPackage(json(validPackage((value) => delete value.tools)), 'json')).toEqual({
      ok: false,
      message: 'The package does not follow the agent package format: tools: is required.',
    });
  });

  it('refuses a manifest too large a tree before checking it, quickly and with a message', () => {
    const tooComplex = {
      ok: false,
      message:
        'The package does not follow the agent package format: the manifest is too large a tree: at most 20,000 values, nested at most 32 deep.',
    };
    // 200,000 wrong properties: zod's list of problems for these overflowed the stack (a 500).
    const wide = validPackage((value) => {
      const [tool] = value.tools as { input_schema: { properties: Record<string, unknown> } }[];
      tool!.input_schema.properties = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`p${i}`, 1]));
    });
    expect(readAgentPackage(json(wide), 'json')).toEqual(tooComplex);
    // A million levels deep: JSON.parse takes it; the walk is no recursion.
    const deep = `{"name":${'{"a":'.repeat(1_000_000)}1${'}'.repeat(1_000_000)}}`;
    expect(readAgentPackage(new TextEncoder().encode(deep), 'json')).toEqual(tooComplex);
  });
});

describe('readZipEntry', () => {
  const archive = zip({ 'agent.json': json(validPackage()) });

  it('refuses a damaged archive, an encrypted entry, a wrong checksum and an entry over the limit', () => {
    expect(readZipEntry(archive.slice(0, 40), 'agent.json', 1024 * 1024)).toEqual({ ok: false, reason: 'unreadable' });
    expect(readZipEntry(new Uint8Array([0x50, 0x4b, 3, 4]), 'agent.json', 1024)).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    const encrypted = archive.slice();
    const view = new DataView(encrypted.buffer);
    const directory = view.getUint32(encrypted.length - 22 + 16, true);
    view.setUint16(directory + 8, 0x0801, true);
    expect(readZipEntry(encrypted, 'agent.json', 1024 * 1024)).toEqual({ ok: false, reason: 'unsupported' });
    const corrupted = archive.slice();
    new DataView(corrupted.buffer).setUint32(directory + 16, 0x12345678, true);
    expect(readZipEntry(corrupted, 'agent.json', 1024 * 1024)).toEqual({ ok: false, reason: 'unreadable' });
    expect(readZipEntry(archive, 'agent.json', 100)).toEqual({ ok: false, reason: 'too-large' });
    // A size that lies: the inflated bytes stop at the limit.
    const lying = zip({ 'agent.json': new Uint8Array(64 * 1024) });
    const lyingView = new DataView(lying.buffer);
    lyingView.setUint32(lyingView.getUint32(lying.length - 22 + 16, true) + 24, 10, true);
    expect(readZipEntry(lying, 'agent.json', 1000)).toEqual({ ok: false, reason: 'too-large' });
  });
});

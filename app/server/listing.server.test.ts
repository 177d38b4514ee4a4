import { describe, expect, it } from 'vitest';
import { formatAgo } from '~/lib/dashboard-format';
import { validPackage } from '../../tests/support/packages';
import { checkImage, checkPackage, isStoredImageOf } from './listing.server';

const SELLER = '00000000-0000-4000-8000-000000000002';
const AGENT = '3f2b8a1e-0c4d-4e5f-8a9b-0c1d2e3f4a5b';
const NAME = '0b7c2a9e-1111-4222-8333-944455556666.png';

describe('image URLs', () => {
  it('keeps only images stored for this seller and agent', () => {
    const prefix = '/storage/v1/object/public/agent-images/';
    expect(isStoredImageOf(`${prefix}${SELLER}/${AGENT}/${NAME}`, SELLER, AGENT)).toBe(true);
    expect(isStoredImageOf(`${prefix}${AGENT}/${AGENT}/${NAME}`, SELLER, AGENT)).toBe(false);
    expect(isStoredImageOf(`${prefix}${SELLER}/${AGENT}/../x/${NAME}`, SELLER, AGENT)).toBe(false);
    expect(isStoredImageOf(`https://evil.test/${NAME}`, SELLER, AGENT)).toBe(false);
    // 36 characters of the UUID's alphabet are not a UUID (the database would refuse the row).
    expect(isStoredImageOf(`${prefix}${SELLER}/${AGENT}/${'-'.repeat(36)}.jpg`, SELLER, AGENT)).toBe(false);
  });
});

describe('file checks', () => {
  it('refuses a script named x.png and a large image, with the file name', async () => {
    const script = await checkImage(new File(['<script>alert(1)</script>'], 'x.png', { type: 'image/png' }));
    expect(script).toEqual({ ok: false, message: 'x.png: Images must be JPEG, PNG, GIF or WebP files.' });
    const large = await checkImage(new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png'));
    expect(large).toMatchObject({ ok: false, message: 'big.png: Each image can be at most 2 MB.' });
  });

  it('follows a lowered upload limit (a platform setting): 1 MB', async () => {
    const image = await checkImage(new File([new Uint8Array(1024 * 1024 + 1)], 'mid.png'), 1);
    expect(image).toMatchObject({ ok: false, message: 'mid.png: Each image can be at most 1 MB.' });
    expect(await checkPackage(new File([new Uint8Array(1024 * 1024 + 1)], 'p.zip'), 1)).toEqual({
      ok: false,
      message: 'The package file can be at most 1 MB.',
    });
  });

  it('takes a JSON package in the agent package format and refuses one that is not, or over 10 MB', async () => {
    expect(await checkPackage(new File([JSON.stringify(validPackage())], 'p.json'))).toMatchObject({
      ok: true,
      kind: 'json',
    });
    expect(await checkPackage(new File(['{"a":1}'], 'p.json'))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The package does not follow the agent package format: name: is required;/),
    });
    expect(await checkPackage(new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'p.zip'))).toEqual({
      ok: false,
      message: 'The package file can be at most 10 MB.',
    });
  });
});

describe('formatAgo', () => {
  it('says how many whole days ago', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(formatAgo('2026-11-23T01:00:00Z', now)).toBe('today');
    expect(formatAgo('2026-11-22T01:00:00Z', now)).toBe('yesterday');
    expect(formatAgo('2026-11-20T11:00:00Z', now)).toBe('3 days ago');
    expect(formatAgo('2026-08-01T00:00:00Z', now)).toBe('3 months ago');
    expect(formatAgo('2024-11-01T00:00:00Z', now)).toBe('2 years ago');
  });
});

import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, MAX_PICTURE_BYTES } from '~/schemas/account';
import { checkPicture, sessionIdOf, storageOrigin } from './account.server';

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('checkPicture', () => {
  it('accepts JPEG, PNG and GIF by their bytes, whatever the name', async () => {
    const png = await checkPicture(new File([new Uint8Array(PNG_HEADER)], 'photo.gif', { type: 'text/plain' }));
    expect(png).toMatchObject({ ok: true, kind: 'png' });
    const jpeg = await checkPicture(new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'x.png'));
    expect(jpeg).toMatchObject({ ok: true, kind: 'jpeg' });
    const gif = await checkPicture(new File(['GIF89a....'], 'x'));
    expect(gif).toMatchObject({ ok: true, kind: 'gif' });
  });

  it('refuses text named .png, WebP, a missing file and anything over 2 MB', async () => {
    expect(await checkPicture(new File(['hello'], 'x.png', { type: 'image/png' }))).toEqual({
      ok: false,
      message: ACCOUNT_MESSAGES.pictureType,
    });
    const webp = new File(['RIFF\0\0\0\0WEBPVP8 '], 'x.webp');
    expect(await checkPicture(webp)).toEqual({ ok: false, message: ACCOUNT_MESSAGES.pictureType });
    expect(await checkPicture(undefined)).toEqual({ ok: false, message: ACCOUNT_MESSAGES.pictureMissing });
    const large = new Uint8Array(MAX_PICTURE_BYTES + 1);
    large.set(PNG_HEADER);
    expect(await checkPicture(new File([large], 'big.png'))).toEqual({
      ok: false,
      message: ACCOUNT_MESSAGES.pictureTooLarge,
    });
  });
});

describe('storageOrigin', () => {
  it("is this site for the embedded backend and hosted Supabase's origin otherwise", () => {
    expect(storageOrigin({ url: 'http://local', fetch: fetch })).toBe('');
    expect(storageOrigin({ url: 'https://abc.supabase.co/', fetch: undefined })).toBe('https://abc.supabase.co');
  });
});

describe('sessionIdOf', () => {
  it('reads the session_id claim of an access token', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'u', session_id: 's-1' })).toString('base64url');
    expect(sessionIdOf(`h.${payload}.sig`)).toBe('s-1');
    expect(sessionIdOf('garbage')).toBeNull();
    expect(sessionIdOf(undefined)).toBeNull();
  });
});

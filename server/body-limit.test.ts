import { describe, expect, it } from 'vitest';
import {
  bodyLimitFor,
  countFormFields,
  MAX_FORM_FIELDS,
  MAX_BACKEND_BYTES,
  MAX_FORM_BYTES,
  MAX_PROFILE_FORM_BYTES,
  MAX_UPLOAD_FORM_BYTES,
} from './body-limit';

describe('bodyLimitFor', () => {
  it('gives only the two listing forms 25 MiB', () => {
    const agentId = '3f2b8a1e-0c4d-4e5f-8a9b-0c1d2e3f4a5b';
    for (const path of [
      '/dashboard/upload',
      '/dashboard/upload.data',
      `/dashboard/agents/${agentId}/edit`,
      `/dashboard/agents/${agentId}/edit.data`,
    ]) {
      expect(bodyLimitFor(path), path).toBe(MAX_UPLOAD_FORM_BYTES);
    }
    expect(MAX_UPLOAD_FORM_BYTES).toBe(25 * 1024 * 1024);
  });

  it('keeps 1 MiB for every other app route', () => {
    for (const path of [
      '/dashboard/agents',
      '/dashboard/agents.data',
      '/dashboard/uploads',
      '/dashboard/upload/extra',
      '/dashboard/agents/x/edit/more',
      '/agent/3f2b8a1e-0c4d-4e5f-8a9b-0c1d2e3f4a5b',
      '/profile/x',
      '/auth/sign-in',
      '/x/dashboard/upload',
    ]) {
      expect(bodyLimitFor(path), path).toBe(MAX_FORM_BYTES);
    }
    expect(MAX_FORM_BYTES).toBe(1024 * 1024);
  });

  it('lets the profile page take a picture (4 MiB)', () => {
    expect(bodyLimitFor('/profile')).toBe(MAX_PROFILE_FORM_BYTES);
    expect(bodyLimitFor('/profile.data')).toBe(MAX_PROFILE_FORM_BYTES);
    expect(MAX_PROFILE_FORM_BYTES).toBe(4 * 1024 * 1024);
  });

  it('gives the file forms their limits for multipart bodies only', () => {
    for (const path of ['/dashboard/upload', '/profile']) {
      for (const type of ['application/x-www-form-urlencoded', 'application/json', 'text/plain', '']) {
        expect(bodyLimitFor(path, type), `${path} ${type}`).toBe(MAX_FORM_BYTES);
      }
    }
    expect(bodyLimitFor('/dashboard/upload', 'multipart/form-data; boundary=x')).toBe(MAX_UPLOAD_FORM_BYTES);
    expect(bodyLimitFor('/storage/v1/object/avatars/a.png', 'image/png')).toBe(MAX_BACKEND_BYTES);
  });

  it('keeps the backend its own limit', () => {
    expect(bodyLimitFor('/storage/v1/object/agent-images/a.png')).toBe(MAX_BACKEND_BYTES);
  });
});

describe('countFormFields', () => {
  it('counts urlencoded pairs and multipart parts on the bytes', () => {
    expect(countFormFields(Buffer.from(''), 'application/x-www-form-urlencoded')).toBe(0);
    expect(countFormFields(Buffer.from('a=1&b=%26&c='), 'application/x-www-form-urlencoded; charset=utf-8')).toBe(3);
    const form = new FormData();
    for (let i = 0; i < 5; i++) form.append(`f${i}`, 'v');
    form.append('file', new Blob(['--not-the-boundary']), 'a.txt');
    const request = new Request('http://x/', { method: 'POST', body: form });
    return request.arrayBuffer().then((bytes) => {
      expect(countFormFields(Buffer.from(bytes), request.headers.get('content-type')!)).toBe(6);
    });
  });

  it('counts nothing in other bodies', () => {
    expect(countFormFields(Buffer.from('a&b&c'), 'application/json')).toBe(0);
    expect(countFormFields(Buffer.from('--x\r\n--x--'), 'multipart/form-data')).toBe(0);
    expect(MAX_FORM_FIELDS).toBe(1000);
  });
});

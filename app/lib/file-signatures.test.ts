import { describe, expect, it } from 'vitest';
import { detectImageKind, detectPackageKind, isJsonDocument, isZip, safeFileName } from './file-signatures';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);

describe('detectImageKind', () => {
  it('knows the four image types by their first bytes', () => {
    expect(detectImageKind(bytes(0xff, 0xd8, 0xff, 0xe0, 0))).toBe('jpeg');
    expect(detectImageKind(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('png');
    expect(detectImageKind(text('GIF89a....'))).toBe('gif');
    expect(detectImageKind(text('GIF87a....'))).toBe('gif');
    expect(detectImageKind(text('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('webp');
  });

  it('refuses a script named like an image, SVG, truncated and empty files', () => {
    expect(detectImageKind(text('<script>alert(1)</script>'))).toBeNull();
    expect(detectImageKind(text('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageKind(bytes(0x89, 0x50, 0x4e))).toBeNull();
    expect(detectImageKind(text('RIFF\u0000\u0000\u0000\u0000WAVE'))).toBeNull();
    expect(detectImageKind(new Uint8Array())).toBeNull();
  });
});

describe('packages', () => {
  it('takes a ZIP by PK\\x03\\x04 and JSON that parses to an object or array', () => {
    expect(isZip(bytes(0x50, 0x4b, 0x03, 0x04, 0x14))).toBe(true);
    expect(isZip(text('PK'))).toBe(false);
    expect(detectPackageKind(bytes(0x50, 0x4b, 0x03, 0x04))).toBe('zip');
    expect(detectPackageKind(text('{"name":"agent"}'))).toBe('json');
    expect(detectPackageKind(text('[1,2]'))).toBe('json');
  });

  it('refuses anything else', () => {
    expect(isJsonDocument(text('42'))).toBe(false);
    expect(isJsonDocument(text('{"broken": '))).toBe(false);
    expect(isJsonDocument(bytes(0xff, 0xfe, 0x7b, 0x7d))).toBe(false);
    expect(detectPackageKind(text('#!/bin/sh\nrm -rf /'))).toBeNull();
    expect(detectPackageKind(new Uint8Array())).toBeNull();
  });

  it('makes a safe file name with the extension of what the file is', () => {
    expect(safeFileName('My Agent (v2).json', 'json')).toBe('My-Agent-v2.json');
    expect(safeFileName('../../etc/passwd', 'zip')).toBe('passwd.zip');
    expect(safeFileName('évil<script>.zip', 'zip')).toBe('vil-script.zip');
    expect(safeFileName('...', 'json')).toBe('package.json');
  });
});

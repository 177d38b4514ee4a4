/**
 * What an uploaded file really is, from its first bytes (never from its name or the type the
 * browser claims): the four image types of agent images and the two package types.
 */

export type ImageKind = 'jpeg' | 'png' | 'gif' | 'webp';

export const IMAGE_CONTENT_TYPES: Record<ImageKind, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

export const IMAGE_EXTENSIONS: Record<ImageKind, string> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp' };

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** JPEG (FF D8 FF), PNG (89 'PNG' 0D 0A 1A 0A), GIF ('GIF87a'/'GIF89a'), WebP ('RIFF' … 'WEBP'); else null. */
export function detectImageKind(bytes: Uint8Array): ImageKind | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
}

export type PackageKind = 'json' | 'zip';

export const PACKAGE_CONTENT_TYPES: Record<PackageKind, 'application/json' | 'application/zip'> = {
  json: 'application/json',
  zip: 'application/zip',
};

/** A ZIP archive's local file header: 'PK' 03 04. */
export function isZip(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]);
}

/** UTF-8 text that parses as JSON (an object or an array: a manifest, not a bare number). */
export function isJsonDocument(bytes: Uint8Array): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** ZIP by its magic bytes, else JSON if it parses, else null. */
export function detectPackageKind(bytes: Uint8Array): PackageKind | null {
  if (isZip(bytes)) return 'zip';
  if (isJsonDocument(bytes)) return 'json';
  return null;
}

/**
 * A file name safe as the last segment of a Storage path and in a download's
 * Content-Disposition: letters, digits, dot, dash and underscore (never two dots in a row), at
 * most 100 characters, with the extension of what the file is.
 */
export function safeFileName(name: string, kind: PackageKind): string {
  const base = name
    .replace(/^.*[/\\]/, '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 90);
  return `${base || 'package'}.${kind}`;
}

/**
 * What an uploaded file really is, from its first bytes (never from its name or the type the
 * browser claims): the four image types of agent images and the two package types. The magic
 * bytes are the embedded backend's (`packages/supabase-embedded/src/storage/image-kind.ts`), whose Storage checks
 * stored images the same way.
 */
import { detectImageKind, IMAGE_CONTENT_TYPES, isZip, type ImageKind } from '@agentmarket/supabase-embedded/shared';

export { detectImageKind, IMAGE_CONTENT_TYPES, isZip, type ImageKind };

export const IMAGE_EXTENSIONS: Record<ImageKind, string> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp' };

export type PackageKind = 'json' | 'zip';

export const PACKAGE_CONTENT_TYPES: Record<PackageKind, 'application/json' | 'application/zip'> = {
  json: 'application/json',
  zip: 'application/zip',
};

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

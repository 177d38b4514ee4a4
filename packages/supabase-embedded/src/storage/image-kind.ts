/**
 * What an image really is, from its first bytes (never from its name or the type a client
 * claims): Storage refuses an object whose bytes are not the image type it is stored as, and the
 * app's forms check uploads the same way (through `shared.ts`).
 */

export type ImageKind = 'jpeg' | 'png' | 'gif' | 'webp';

export const IMAGE_CONTENT_TYPES: Record<ImageKind, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

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

/** A ZIP archive's local file header: 'PK' 03 04. */
export function isZip(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]);
}

/**
 * An upload's bytes and attributes, from either body storage-js sends: multipart form-data (a
 * Blob/File upload; the file part, `cacheControl`, `metadata`) or the raw bytes with
 * `content-type`, `cache-control` and a base64 `x-metadata` header.
 */
import { detectImageKind, IMAGE_CONTENT_TYPES } from './image-kind';
import { MAX_BODY_BYTES } from '../gateway';
import { JsonTooDeepError, parseJson } from '../json-body';
import { BodyTooLargeError, readBodyBytes } from '../rest/body';
import { containsNul, NUL_MESSAGE } from '../text';
import { invalidRequest, tooLarge } from './errors';

export interface UploadBody {
  bytes: Uint8Array;
  contentType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

function parseMetadata(text: string | null | undefined): Record<string, unknown> | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw invalidRequest(error instanceof JsonTooDeepError ? `Invalid metadata: ${error.message}` : 'Invalid metadata');
  }
  if (containsNul(value)) throw invalidRequest(NUL_MESSAGE);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function cacheControlOf(value: string | null | undefined): string {
  if (!value) return 'max-age=3600';
  return /^\d+$/.test(value) ? `max-age=${value}` : value;
}

/** A request body up to the gateway's limit; a larger one is Storage's 413. */
export async function readStorageBody(request: Request): Promise<Uint8Array> {
  try {
    return await readBodyBytes(request, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge();
    throw error;
  }
}

export async function readUpload(request: Request): Promise<UploadBody> {
  const bytes = await readStorageBody(request);
  const contentType = request.headers.get('content-type') ?? 'application/octet-stream';
  if (!/^multipart\/form-data/i.test(contentType)) {
    const metadataHeader = request.headers.get('x-metadata');
    return {
      bytes,
      contentType,
      cacheControl: cacheControlOf(request.headers.get('cache-control')),
      userMetadata: metadataHeader ? parseMetadata(Buffer.from(metadataHeader, 'base64').toString('utf8')) : null,
    };
  }
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw invalidRequest('Malformed multipart body');
  }
  let file: Blob | null = null;
  form.forEach((value) => {
    if (!file && typeof value !== 'string') file = value;
  });
  const part = file as Blob | null;
  if (!part) throw invalidRequest('No file found in the multipart body');
  const cacheControl = form.get('cacheControl');
  const metadata = form.get('metadata');
  return {
    bytes: new Uint8Array(await part.arrayBuffer()),
    contentType: part.type || 'application/octet-stream',
    cacheControl: cacheControlOf(typeof cacheControl === 'string' ? cacheControl : null),
    userMetadata: parseMetadata(typeof metadata === 'string' ? metadata : null),
  };
}

/** `image/png` against `["image/*", "text/plain"]`; parameters (`;charset=…`) are ignored. */
export function mimeAllowed(contentType: string, allowed: string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const base = contentType.split(';')[0]!.trim().toLowerCase();
  return allowed.some((pattern) => {
    const lower = pattern.toLowerCase();
    return lower.endsWith('/*') ? base.startsWith(lower.slice(0, -1)) : base === lower;
  });
}

/**
 * For an upload declared as JPEG, PNG, GIF or WebP (the types of the image buckets), whether its
 * first bytes are that image, checked as the app's forms check them (app/lib/file-signatures.ts);
 * any other type is left to the bucket's allowed_mime_types.
 */
export function bytesMatchImageType(contentType: string, bytes: Uint8Array): boolean {
  const base = contentType.split(';')[0]!.trim().toLowerCase();
  const declared = Object.entries(IMAGE_CONTENT_TYPES).find(([, type]) => type === base)?.[0];
  return declared === undefined || detectImageKind(bytes) === declared;
}

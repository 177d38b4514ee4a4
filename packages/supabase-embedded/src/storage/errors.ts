/** Storage errors in storage-api's shape: `{statusCode, error, message}` (plus `code`). */
import { ClientLimitError, DatabaseBusyError, RequestCancelledError } from '../admission';
import { jsonResponse } from '../context';

export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    /** The body's `statusCode`; storage-api reports some 400s as "403" (JWT problems). */
    readonly statusCode = String(status),
    readonly code = error,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const bucketNotFound = () =>
  new StorageError(404, 'Bucket not found', 'Bucket not found', '404', 'NoSuchBucket');
export const objectNotFound = () => new StorageError(404, 'not_found', 'Object not found', '404', 'NoSuchKey');
export const duplicate = () => new StorageError(409, 'Duplicate', 'The resource already exists', '409', 'Duplicate');
export const invalidKey = (key: string) =>
  new StorageError(400, 'InvalidKey', `Invalid key: ${key}`, '400', 'InvalidKey');
export const invalidRequest = (message: string) =>
  new StorageError(400, 'InvalidRequest', message, '400', 'InvalidRequest');
export const invalidJwt = (message: string) => new StorageError(400, 'Unauthorized', message, '403', 'InvalidJWT');
export const tooLarge = () =>
  new StorageError(413, 'Payload too large', 'The object exceeded the maximum allowed size', '413', 'EntityTooLarge');
export const invalidMime = (type: string) =>
  new StorageError(415, 'invalid_mime_type', `mime type ${type} is not supported`, '415', 'InvalidMimeType');
/** The bytes of an upload are not the image type it declares. */
export const mimeMismatch = (type: string) =>
  new StorageError(415, 'invalid_mime_type', `the file's content is not ${type}`, '415', 'InvalidMimeType');

interface PgErrorLike {
  code: string;
  message: string;
  severity: string;
}

function isPgError(error: unknown): error is PgErrorLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    'severity' in error &&
    typeof (error as PgErrorLike).code === 'string'
  );
}

export function toStorageError(error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  // Turned away by the database's gate (ADR 032): storage-api's SlowDown, and 429 for a client
  // over its share.
  if (error instanceof DatabaseBusyError || error instanceof ClientLimitError) {
    const busy = error instanceof DatabaseBusyError;
    return new StorageError(
      busy ? 503 : 429,
      busy ? 'SlowDown' : 'TooManyRequests',
      error.message,
      busy ? '503' : '429',
      busy ? 'SlowDown' : 'TooManyRequests',
      { 'retry-after': String(error.retryAfterSeconds) },
    );
  }
  if (error instanceof RequestCancelledError) return new StorageError(499, 'Cancelled', error.message);
  if (isPgError(error)) {
    if (error.code === '42501') {
      return new StorageError(403, 'Unauthorized', 'new row violates row-level security policy', '403', 'AccessDenied');
    }
    if (error.code === '23505') return duplicate();
    if (error.code === '23503') return bucketNotFound();
    if (error.code.startsWith('22') || error.code.startsWith('23')) return invalidRequest(error.message);
    return new StorageError(500, 'DatabaseError', error.message, '500', 'DatabaseError');
  }
  console.warn('[storage] unexpected error', error);
  return new StorageError(500, 'internal', 'Internal Server Error', '500', 'InternalError');
}

export function storageErrorResponse(error: StorageError): Response {
  return jsonResponse(
    { statusCode: error.statusCode, code: error.code, error: error.error, message: error.message },
    error.status,
    error.headers,
  );
}

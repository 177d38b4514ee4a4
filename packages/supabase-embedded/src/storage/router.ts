/** Routes a Storage request (path after `/storage/v1`) to bucket or object handlers. */
import type { Claims } from '../database';
import { JsonTooDeepError, parseJson } from '../json-body';
import type { Keys } from '../keys';
import type { LiveSessions } from '../live-sessions';
import { containsNul, NUL_MESSAGE } from '../text';
import { storageClaims } from './auth';
import { signUpload, uploadWithToken } from './signed-upload';
import { handleBuckets } from './buckets';
import { invalidRequest, StorageError } from './errors';
import { listObjects } from './list';
import { readStorageBody } from './upload-body';
import {
  downloadObject,
  downloadPublic,
  downloadSigned,
  moveOrCopy,
  objectInfo,
  removeOne,
  removePrefixes,
  signObject,
  signObjects,
  uploadObject,
  type ObjectServices,
} from './objects';

const notFound = () => new StorageError(404, 'not_found', 'Route not found', '404', 'NotFound');

async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = new TextDecoder().decode(await readStorageBody(request)).trim();
  if (text === '') return {};
  try {
    const value = parseJson(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    if (containsNul(value)) throw invalidRequest(NUL_MESSAGE);
    return value as Record<string, unknown>;
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw invalidRequest(error instanceof JsonTooDeepError ? error.message : 'Body must be a JSON object');
  }
}

function decodeSegments(path: string): string[] {
  try {
    return path
      .split('/')
      .filter((segment, index) => index > 0 || segment !== '')
      .map((segment) => decodeURIComponent(segment));
  } catch {
    throw invalidRequest('Malformed path');
  }
}

export function createRouter(services: ObjectServices & { keys: Keys; sessions: LiveSessions }) {
  const { db, blobs, keys, sessions } = services;
  return async function route(request: Request, path: string): Promise<Response> {
    const method = request.method.toUpperCase();
    const segments = decodeSegments(path);
    const url = new URL(request.url);
    const head = method === 'HEAD';
    const read = method === 'GET' || head;
    const [area, second, third] = segments;
    /** `<bucket>/<key…>` starting at segment `from`. */
    const target = (from: number) => {
      const bucket = segments[from];
      const key = segments.slice(from + 1).join('/');
      if (!bucket) throw notFound();
      return { bucket, key };
    };

    if (area === 'object' && second === 'public' && read) {
      const { bucket, key } = target(2);
      return downloadPublic(services, bucket, key, head);
    }
    if (area === 'object' && second === 'sign' && read) {
      const { bucket, key } = target(2);
      return downloadSigned(services, bucket, key, url.searchParams.get('token'), head);
    }

    if (area === 'object' && second === 'upload' && third === 'sign' && method === 'PUT') {
      const { bucket, key } = target(3);
      return uploadWithToken(services, request, bucket, key, url.searchParams.get('token'));
    }

    const claims: Claims = await storageClaims(request, keys, sessions);
    if (area === 'object' && second === 'upload' && third === 'sign' && method === 'POST') {
      const { bucket, key } = target(3);
      return signUpload(services, claims, request, bucket, key);
    }
    if (area === 'bucket') {
      const body = method === 'POST' || method === 'PUT' ? await jsonBody(request) : {};
      return handleBuckets(db, blobs, claims, method, segments.slice(1), body);
    }
    if (area !== 'object' || !second) throw notFound();

    if (second === 'list' && method === 'POST' && third) return listObjects(db, claims, third, await jsonBody(request));
    if ((second === 'move' || second === 'copy') && method === 'POST' && segments.length === 2) {
      return moveOrCopy(services, claims, await jsonBody(request), second);
    }
    if (second === 'sign' && method === 'POST') {
      const { bucket, key } = target(2);
      const body = await jsonBody(request);
      return key ? signObject(services, claims, bucket, key, body) : signObjects(services, claims, bucket, body);
    }
    if (second === 'info' && read) {
      const from = third === 'authenticated' || third === 'public' ? 3 : 2;
      const { bucket, key } = target(from);
      return objectInfo(services, claims, bucket, key);
    }
    if (second === 'authenticated' && read) {
      const { bucket, key } = target(2);
      return downloadObject(services, claims, bucket, key, head);
    }
    const { bucket, key } = target(1);
    if (!key) {
      if (method === 'DELETE') return removePrefixes(services, claims, bucket, await jsonBody(request));
      throw notFound();
    }
    if (method === 'POST') return uploadObject(services, claims, request, bucket, key, 'create');
    if (method === 'PUT') return uploadObject(services, claims, request, bucket, key, 'update');
    if (read) return downloadObject(services, claims, bucket, key, head);
    if (method === 'DELETE') return removeOne(services, claims, bucket, key);
    throw notFound();
  };
}

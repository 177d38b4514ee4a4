/**
 * Object keys and bucket names: anything that could leave `<dataDir>/storage/<bucket>/` or
 * confuse the file system (`..`, absolute paths, backslashes, NUL, control characters) is refused.
 */
import { invalidKey, invalidRequest } from './errors';

const KEY_CHARS = /^[\p{L}\p{N}_/!\-.*'() &$@=;:+,?~%]*$/u;
const BUCKET_NAME = /^[A-Za-z0-9_!\-.*'() &$@=;:+,?]+$/;

export function checkObjectKey(key: string): string {
  const segments = key.split('/');
  if (
    key.length === 0 ||
    key.length > 1024 ||
    key.startsWith('/') ||
    !KEY_CHARS.test(key) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..')
  ) {
    throw invalidKey([...key].map((char) => (char.charCodeAt(0) < 32 ? '?' : char)).join(''));
  }
  return key;
}

export function checkBucketName(name: unknown): string {
  if (
    typeof name !== 'string' ||
    name.length === 0 ||
    name.length > 100 ||
    !BUCKET_NAME.test(name) ||
    name === '.' ||
    name === '..'
  ) {
    throw invalidRequest('Bucket name invalid');
  }
  return name;
}

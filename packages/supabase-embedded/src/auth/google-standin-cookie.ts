/**
 * The stand-in Google page remembers, per browser, which stand-in Google accounts that browser
 * created: a signed cookie with their subjects. The page lists only those and signs in only as
 * those, so one visitor never sees or uses the accounts another made (Google's own account
 * chooser is per browser too).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AuthService } from './service';

const COOKIE = 'sb-local-google-accounts';
const MAX_ACCOUNTS = 20;

function signature(service: AuthService, payload: string): Buffer {
  return createHmac('sha256', service.keys.jwtSecret).update(`local-google:${payload}`).digest();
}

/** The subjects this browser created; a missing, malformed or forged cookie is an empty list. */
export function browserSubjects(service: AuthService, request: Request): string[] {
  const raw = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1);
  const [payload, mac] = (raw ?? '').split('.');
  if (!payload || !mac) return [];
  const expected = signature(service, payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [];
  try {
    const subjects: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return Array.isArray(subjects) ? subjects.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** `Set-Cookie` adding `subject` (newest first) to this browser's list. */
export function rememberSubject(service: AuthService, subjects: string[], subject: string): string {
  const next = [subject, ...subjects.filter((item) => item !== subject)].slice(0, MAX_ACCOUNTS);
  const payload = Buffer.from(JSON.stringify(next)).toString('base64url');
  const value = `${payload}.${signature(service, payload).toString('base64url')}`;
  const secure = service.appOrigin().startsWith('https:') ? '; Secure' : '';
  return `${COOKIE}=${value}; Path=/auth/v1/_local/; Max-Age=31536000; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * Cookies are Secure whenever the request arrived over HTTPS (behind a TLS proxy, set
 * TRUST_PROXY=true so the forwarded protocol counts). Plain-HTTP local runs keep working in
 * every browser.
 */
export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === 'https:';
}

/**
 * The app's own cookies: the theme choice and one-shot flash messages. HttpOnly, SameSite=Lax,
 * Secure in production, signed with SESSION_SECRET (a per-process secret when it is unset,
 * which only costs pending flash messages on restart).
 */
import { randomBytes } from 'node:crypto';
import { createCookie, createCookieSessionStorage, redirect } from 'react-router';
import type { Flash } from '~/lib/flash';
import { isThemeChoice, type ThemeChoice } from '~/lib/theme';
import { env } from '~/server/env.server';

/** What the app's own signed cookies are signed with (flash messages, the visitor's cart). */
export const cookieSecrets = [env.SESSION_SECRET ?? randomBytes(32).toString('hex')];

const themeCookie = createCookie('am_theme', {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  maxAge: 60 * 60 * 24 * 365,
});

/** The stored theme, or `null` to follow the system preference. */
export async function getTheme(request: Request): Promise<ThemeChoice | null> {
  const value: unknown = await themeCookie.parse(request.headers.get('cookie'));
  return isThemeChoice(value) ? value : null;
}

export function setTheme(request: Request, theme: ThemeChoice): Promise<string> {
  return themeCookie.serialize(theme, { secure: isSecureRequest(request) });
}

const flashStorage = createCookieSessionStorage<Record<string, never>, { flash: Flash }>({
  cookie: {
    name: 'am_flash',
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secrets: cookieSecrets,
    maxAge: 60,
  },
});

async function setFlash(request: Request, flash: Flash): Promise<string> {
  const session = await flashStorage.getSession(request.headers.get('cookie'));
  session.flash('flash', flash);
  return flashStorage.commitSession(session, { secure: isSecureRequest(request) });
}

/**
 * To `to` with a message for the page there (POST → redirect → GET): always 303 See Other, so
 * the browser follows with a GET, with the flash cookie beside any `headers` given.
 */
export async function redirectWithFlash(
  request: Request,
  to: string,
  flash: Flash,
  headers?: HeadersInit,
): Promise<Response> {
  const responseHeaders = new Headers(headers);
  responseHeaders.append('Set-Cookie', await setFlash(request, flash));
  return redirect(to, { status: 303, headers: responseHeaders });
}

/** Reads and consumes the flash message; the returned header clears it. */
export async function takeFlash(request: Request): Promise<{ flash: Flash | null; setCookie: string | null }> {
  const session = await flashStorage.getSession(request.headers.get('cookie'));
  const flash = session.get('flash') ?? null;
  return {
    flash,
    setCookie: flash ? await flashStorage.commitSession(session, { secure: isSecureRequest(request) }) : null,
  };
}

/**
 * Security middleware of the HTTP layer: baseline headers, a per-request CSP nonce, the
 * cross-site request check for every mutation. The request body limits are in body-limit.ts.
 */
import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export function baselineHeaders(_req: Request, res: Response, next: NextFunction) {
  res.locals.cspNonce = randomBytes(16).toString('base64');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  next();
}

/** The policy of responses not rendered by React Router (the embedded backend's own pages). */
export const BASELINE_CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; object-src 'none'; base-uri 'self'";

/** The Content-Security-Policy of an HTML page; `formOrigins` are hosted Supabase's. */
export function contentSecurityPolicy(nonce: string, options: { development: boolean; formOrigins?: string[] }) {
  const formAction = ["'self'", ...(options.formOrigins ?? [])].join(' ');
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ''}`,
    // The nonce admits the stylesheet written into the page (ADR 029), no other <style>.
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    `connect-src 'self'${options.development ? ' ws: wss:' : ''}`,
    `form-action ${formAction}`,
    "base-uri 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses cross-site mutations with 403, on top of SameSite cookies. A request is same-origin
 * when its `Origin` matches the host it was sent to; without `Origin`, `Sec-Fetch-Site` decides;
 * a request with neither (curl, server-to-server) carries no browser cookies by accident.
 */
export function rejectCrossSiteMutations(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method)) return next();
  const origin = req.get('origin');
  const fetchSite = req.get('sec-fetch-site');
  const host = req.get('host');
  const sameOrigin = origin ? origin !== 'null' && safeHost(origin) === host : fetchSite !== 'cross-site';
  if (sameOrigin && fetchSite !== 'cross-site') return next();
  res.status(403).type('text/plain').send('Cross-site request refused.');
}

function safeHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

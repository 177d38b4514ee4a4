/**
 * The embedded Auth service (`/auth/v1`): a GoTrue stand-in that unmodified supabase-js and
 * @supabase/ssr clients talk to. This module only routes; each route lives in `routes/`.
 */
import type { ServiceContext, ServiceHandler } from '../context';
import type { AuthConfigOverrides } from './config';
import { loadAuthConfig } from './config';
import { API_VERSION, AuthError, errorResponse } from './errors';
import { createAuthRateLimiter, databaseWindows, type RateLimitClock } from './rate-limit';
import * as admin from './routes/admin';
import { enrollFactor, challengeFactor, unenrollFactor, verifyFactor } from './routes/factors';
import { recover, otp, resend } from './routes/email';
import { createMailDelivery } from './delivery';
import { createGoogleOidc } from './google-oidc';
import { adminOutbox, jwks, outboxJson, outboxPage, sendProductEmail, settings } from './routes/misc';
import { authorize, avatar, callback, googlePage, googleSubmit } from './routes/oauth';
import { signup } from './routes/signup';
import { token } from './routes/token';
import { getUserRoute, logoutRoute, reauthenticateRoute, updateUserRoute } from './routes/user';
import { verifyGet, verifyPost } from './routes/verify';
import type { AuthService } from './service';

export type { AuthConfig, AuthConfigOverrides } from './config';
export type { RateLimitClock } from './rate-limit';
export { readOutbox, type OutboxEmail } from './outbox';

type Route = (service: AuthService, request: Request, param: string) => Promise<Response>;

const ROUTES: Array<[method: string, path: RegExp, route: Route]> = [
  ['POST', /^\/signup$/, signup],
  ['POST', /^\/token$/, token],
  ['GET', /^\/user$/, getUserRoute],
  ['PUT', /^\/user$/, updateUserRoute],
  ['GET', /^\/reauthenticate$/, reauthenticateRoute],
  ['POST', /^\/logout$/, logoutRoute],
  ['POST', /^\/recover$/, recover],
  ['POST', /^\/otp$/, otp],
  ['POST', /^\/magiclink$/, otp],
  ['POST', /^\/resend$/, resend],
  ['POST', /^\/verify$/, verifyPost],
  ['GET', /^\/verify$/, verifyGet],
  ['GET', /^\/authorize$/, authorize],
  ['GET', /^\/callback$/, callback],
  ['GET', /^\/settings$/, settings],
  [
    'GET',
    /^\/health$/,
    async () => Response.json({ version: 'embedded', name: 'GoTrue', description: 'GoTrue stand-in' }),
  ],
  ['GET', /^\/\.well-known\/jwks\.json$/, jwks],
  ['POST', /^\/factors$/, enrollFactor],
  ['POST', /^\/factors\/([^/]+)\/challenge$/, challengeFactor],
  ['POST', /^\/factors\/([^/]+)\/verify$/, verifyFactor],
  ['DELETE', /^\/factors\/([^/]+)$/, unenrollFactor],
  ['GET', /^\/admin\/users$/, admin.listUsers],
  ['POST', /^\/admin\/users$/, admin.createUserRoute],
  ['GET', /^\/admin\/users\/([^/]+)$/, admin.getUserRoute],
  ['PUT', /^\/admin\/users\/([^/]+)$/, admin.updateUserRoute],
  ['DELETE', /^\/admin\/users\/([^/]+)$/, admin.deleteUserRoute],
  ['POST', /^\/admin\/generate_link$/, admin.generateLink],
  ['GET', /^\/admin\/outbox$/, adminOutbox],
  ['POST', /^\/admin\/outbox$/, sendProductEmail],
  ['GET', /^\/_local\/google$/, googlePage],
  ['POST', /^\/_local\/google$/, googleSubmit],
  ['GET', /^\/_local\/avatar$/, avatar],
  ['GET', /^\/_local\/outbox$/, outboxPage],
  ['GET', /^\/_local\/outbox\.json$/, outboxJson],
];

export interface AuthServiceOptions {
  auth?: AuthConfigOverrides;
  /** The rate limiter's clock (tests pass a fake one rather than sleeping through delays). */
  clock?: RateLimitClock;
  /** The development pages under `/_local/*` (open outbox, stand-in Google); default off. */
  devTools?: boolean;
  /** Where emails go without SMTP (default: the server log). */
  log?: (line: string) => void;
}

export function createAuthService(
  context: ServiceContext & AuthServiceOptions,
): ServiceHandler & { close(): void; tokenLifetimeSeconds: number } {
  const config = loadAuthConfig(context.supabaseDir, context.auth);
  const service: AuthService = {
    db: context.db,
    keys: context.keys,
    config,
    sessions: context.sessions,
    limits: createAuthRateLimiter(config.rateLimits, databaseWindows(context.db, context.clock)),
    appOrigin: () => context.siteUrl(),
    authUrl: () => `${context.siteUrl()}/auth/v1`,
    mail: createMailDelivery(config.smtp, context.log),
    devTools: context.devTools ?? false,
    google: config.googleClient ? createGoogleOidc(config.googleClient) : null,
  };
  const handler = async (request: Request, path: string) => {
    let response: Response;
    try {
      response = await dispatch(service, request, path);
    } catch (error) {
      response = errorResponse(error, request);
    }
    if (request.headers.has('x-supabase-api-version')) response.headers.set('x-supabase-api-version', API_VERSION);
    return response;
  };
  return Object.assign(handler, { close: () => service.mail.close(), tokenLifetimeSeconds: config.jwtExpiry });
}

async function dispatch(service: AuthService, request: Request, path: string): Promise<Response> {
  // Development pages do not exist in production: the outbox hands out sign-in codes and the
  // stand-in Google page signs in without a password.
  if (path.startsWith('/_local/') && !service.devTools) throw new AuthError(404, 'not_found', 'Not Found');
  let pathMatched = false;
  for (const [method, pattern, route] of ROUTES) {
    const match = pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (method === request.method || (method === 'GET' && request.method === 'HEAD')) {
      return route(service, request, safeDecode(match[1] ?? ''));
    }
  }
  if (pathMatched) throw new AuthError(405, 'method_not_allowed', 'Method Not Allowed');
  throw new AuthError(404, 'not_found', 'Not Found');
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

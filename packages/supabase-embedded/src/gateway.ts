/**
 * The API gateway in front of the services: API key check, the
 * `Authorization` rewrite, CORS, and routing by prefix to Auth, the Data API and Storage.
 */
import { requestScope } from './admission';
import { stampClientAddress } from './client-address';
import { errorResponse as authErrorResponse, validationFailed } from './auth/errors';
import type { ServiceHandler } from './context';
import { jsonResponse } from './context';
import type { Keys } from './keys';
import { errorResponse as restErrorResponse, RestError } from './rest/errors';
import { StorageError, storageErrorResponse } from './storage/errors';
import { NUL_MESSAGE, urlContainsNul } from './text';

export interface GatewayServices {
  auth: ServiceHandler;
  rest: ServiceHandler;
  storage: ServiceHandler;
}

const PREFIXES = [
  ['/auth/v1', 'auth'],
  ['/rest/v1', 'rest'],
  ['/storage/v1', 'storage'],
] as const;

/** Auth routes opened by browsers and email clients: no API key needed. */
const OPEN_AUTH_PATHS = [/^\/verify$/, /^\/callback$/, /^\/authorize$/, /^\/\.well-known\/jwks\.json$/, /^\/_local\//];
/** Public storage objects are fetched by `<img>` tags without a key. */
const OPEN_STORAGE_PATHS = [/^\/object\/public\//, /^\/object\/sign\//, /^\/render\/image\/public\//];

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers':
    'apikey, authorization, x-client-info, content-type, prefer, accept-profile, content-profile, x-supabase-api-version, x-retry-count, range, x-upsert, cache-control',
  'access-control-expose-headers': 'Content-Range, X-Supabase-Api-Version, X-Total-Count, Link',
};

/** Largest request body any service accepts (storage uploads included). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export function isBackendPath(pathname: string): boolean {
  return PREFIXES.some(([prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * Whether a request path climbs or hides folders: a `.` or `..` segment, a backslash, or an
 * encoded dot, slash or backslash (`%2e`, `%2f`, `%5c`, in any case, also encoded again as
 * `%252e`...). Such a path could reach another service than its prefix names once something
 * normalises it (`/storage/v1/object/b/../../../auth/v1/admin/users`); no client of ours sends
 * one. The query is not a path and is not looked at.
 */
export function isClimbingPath(target: string): boolean {
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/[?#].*$/s, '');
  if (path.includes('\\') || path.split('/').some((segment) => segment === '.' || segment === '..')) return true;
  for (let layer = path; ;) {
    if (/%(2e|2f|5c)/i.test(layer)) return true;
    const decoded = layer.replace(/%25/gi, '%');
    if (decoded === layer) return false;
    layer = decoded;
  }
}

export function createGateway(keys: Keys, services: GatewayServices) {
  /**
   * `target` is the request's path as it came in, before URL parsing resolved its dot segments
   * (the HTTP layer's raw request-target, or the string an in-process `fetch` was given).
   * `fromApp`: the app's own server-side call (the in-process `fetch`), not a client's.
   */
  return async function handle(
    request: Request,
    clientAddress?: string,
    target?: string,
    fromApp = false,
  ): Promise<Response> {
    const url = new URL(request.url);
    const match = PREFIXES.find(([prefix]) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
    // Before routing: a climbing path is refused whatever service it names (in that one's shape).
    if (isClimbingPath(url.pathname) || (target !== undefined && isClimbingPath(target))) {
      return withCors(
        match ? invalidUrl(match[1], request, CLIMBING_MESSAGE) : jsonResponse({ message: CLIMBING_MESSAGE }, 400),
      );
    }
    if (!match) return jsonResponse({ message: 'no Route matched with those values' }, 404);
    const [prefix, service] = match;
    const path = url.pathname.slice(prefix.length) || '/';

    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS_HEADERS });

    const declaredLength = Number(request.headers.get('content-length') ?? 0);
    if (declaredLength > MAX_BODY_BYTES) {
      return withCors(
        jsonResponse({ message: 'Payload too large', statusCode: '413', error: 'Payload too large' }, 413),
      );
    }

    // One check for every service: a NUL in the path or a query value is a 400 in its shape.
    if (urlContainsNul(url)) return withCors(invalidUrl(service, request, NUL_MESSAGE));

    const apikey = request.headers.get('apikey') ?? url.searchParams.get('apikey');
    const isOpen =
      (service === 'auth' && OPEN_AUTH_PATHS.some((pattern) => pattern.test(path))) ||
      (service === 'storage' && OPEN_STORAGE_PATHS.some((pattern) => pattern.test(path)));
    if (!apikey && !isOpen) {
      return withCors(
        jsonResponse(
          { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' },
          401,
        ),
      );
    }
    if (apikey && apikey !== keys.anonKey && apikey !== keys.serviceRoleKey) {
      return withCors(
        jsonResponse(
          { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' },
          401,
        ),
      );
    }

    const headers = new Headers(request.headers);
    const authorization = headers.get('authorization');
    if ((!authorization || /^bearer\s+sb_/i.test(authorization)) && apikey) {
      headers.set('authorization', `Bearer ${apikey}`);
    }
    // Only the caller of `handle` (the HTTP layer, the app's in-process client) says who the
    // client is; a header of that name sent from outside is overwritten here.
    stampClientAddress(headers, clientAddress);
    // Rebuilt field by field: `new Request(request, init)` throws on the lazy Request objects
    // of @remix-run/node-fetch-server (not real undici Requests).
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
    const forwarded = new Request(request.url, {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
      signal: request.signal,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    // The database's gate counts the request as this client's (not the app's own calls) and drops
    // it if the client goes away while it waits (ADR 032).
    const scope = { address: clientAddress, fromApp, signal: forwarded.signal };
    return withCors(await requestScope.run(scope, () => services[service](forwarded, path)));
  };
}

const CLIMBING_MESSAGE = 'A path may not have "." or ".." segments, backslashes or encoded dots or slashes.';

/** A 400 for a URL no service may see (a NUL, a climbing path), in the shape of the service it names. */
function invalidUrl(service: 'auth' | 'rest' | 'storage', request: Request, message: string): Response {
  if (service === 'auth') return authErrorResponse(validationFailed(message), request);
  // Storage names objects and buckets in the path: storage-api's InvalidKey.
  if (service === 'storage') {
    return storageErrorResponse(new StorageError(400, 'InvalidKey', message, '400', 'InvalidKey'));
  }
  // What Postgres answers for a NUL in a text value (PostgREST passes it through as a 400).
  if (message === NUL_MESSAGE) {
    return restErrorResponse(new RestError(400, '22021', 'invalid byte sequence for encoding "UTF8": 0x00', message));
  }
  // PostgREST's "invalid path" error.
  return restErrorResponse(new RestError(400, 'PGRST125', 'Invalid path specified in request URL', message));
}

function withCors(response: Response): Response {
  for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
  return response;
}

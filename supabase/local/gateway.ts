/**
 * The API gateway in front of the services (wire reference §1.4): API key check, the
 * `Authorization` rewrite, CORS, and routing by prefix to Auth, the Data API and Storage.
 */
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

export function createGateway(keys: Keys, services: GatewayServices) {
  return async function handle(request: Request, clientAddress?: string): Promise<Response> {
    const url = new URL(request.url);
    const match = PREFIXES.find(([prefix]) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
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
    if (urlContainsNul(url)) return withCors(nulInUrl(service, request));

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
    return withCors(await services[service](forwarded, path));
  };
}

function nulInUrl(service: 'auth' | 'rest' | 'storage', request: Request): Response {
  if (service === 'auth') return authErrorResponse(validationFailed(NUL_MESSAGE), request);
  // Storage names objects and buckets in the path: storage-api's InvalidKey.
  if (service === 'storage') {
    return storageErrorResponse(new StorageError(400, 'InvalidKey', NUL_MESSAGE, '400', 'InvalidKey'));
  }
  // What Postgres answers for a NUL in a text value (PostgREST passes it through as a 400).
  return restErrorResponse(new RestError(400, '22021', 'invalid byte sequence for encoding "UTF8": 0x00', NUL_MESSAGE));
}

function withCors(response: Response): Response {
  for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
  return response;
}

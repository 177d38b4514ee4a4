/**
 * The seller API's tokens (ADR 074). A token is `am_pat_` and 43 characters of base64url (256
 * random bits), shown once; the database keeps its SHA-256. A request's Bearer token is resolved
 * by `api_token_owner` (service role: live, its owner a seller or an admin, not banned) and the API
 * then acts as that person through a client of their own, under their row-level security, with a
 * short-lived access token signed for them (`signAccessToken` of the connection). The dashboard's
 * rules hold for the API because the API goes through the same database.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RouterContextProvider } from 'react-router';
import { clientAddressContext, connectionContext, type SupabaseConnection } from '~/context';
import type { ApiScope } from '~/schemas/api';
import { apiError } from '~/server/api/responses.server';
import { unavailableMessage, unwrap } from '~/server/http-errors.server';
import { apiRateLimitByToken, formWindows } from '~/server/rate-limit.server';
import { bearerSupabase, createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';

export const TOKEN_PREFIX = 'am_pat_';
const TOKEN_PATTERN = /^am_pat_[A-Za-z0-9_-]{43}$/;

/** A new token, what the database keeps of it (hash, prefix). */
export function newApiToken(): { token: string; hash: string; prefix: string } {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashApiToken(token), prefix: token.slice(0, TOKEN_PREFIX.length + 4) };
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whom a request acts for: the token's owner, their role, and a client that is theirs. */
export interface ApiCaller {
  userId: string;
  tokenId: string;
  isAdmin: boolean;
  scopes: ApiScope[];
  client: AppSupabaseClient;
}

const ACCESS_TOKEN_SECONDS = 300;
/** Access tokens signed for API tokens, reused for most of their life (signing is per request otherwise). */
const accessTokens = new Map<string, { token: string; until: number }>();

async function accessTokenFor(connection: SupabaseConnection, tokenId: string, userId: string): Promise<string> {
  const cached = accessTokens.get(tokenId);
  if (cached && cached.until > Date.now()) return cached.token;
  const token = await connection.signAccessToken!(
    {
      sub: userId,
      role: 'authenticated',
      aud: 'authenticated',
      // A token is made by a person signed in in full (the second factor too, where they have one).
      aal: 'aal2',
      amr: [{ method: 'api_token', timestamp: Math.floor(Date.now() / 1000) }],
      is_anonymous: false,
    },
    ACCESS_TOKEN_SECONDS,
  );
  if (accessTokens.size > 10_000) accessTokens.clear();
  accessTokens.set(tokenId, { token, until: Date.now() + (ACCESS_TOKEN_SECONDS - 60) * 1000 });
  return token;
}

/** Forgets the access token of a revoked API token at once (this process; others within a minute at most: the owner is looked up per request). */
export function forgetApiToken(tokenId: string): void {
  accessTokens.delete(tokenId);
}

/**
 * The caller of an API request with `scope`, or the answer to send instead: 401 without a live
 * token, 403 without the scope, 429 past the per-token limit, 503 when the deployment cannot
 * act for users (no signing key) or the backend fails.
 */
export async function authenticateApi(
  request: Request,
  context: Readonly<RouterContextProvider>,
  scope: ApiScope,
): Promise<ApiCaller | Response> {
  const header = request.headers.get('authorization') ?? '';
  const token = header.match(/^Bearer\s+(\S+)$/i)?.[1] ?? '';
  const unauthorized = (message: string) =>
    apiError(401, 'unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer realm="AgentMarket API"' } });
  if (!token) return unauthorized('Send an API token: Authorization: Bearer am_pat_…');
  if (!TOKEN_PATTERN.test(token))
    return unauthorized('This API token is not valid: it may have expired or been revoked.');
  const connection = context.get(connectionContext);
  if (!connection.signAccessToken) {
    return apiError(503, 'unavailable', 'The seller API is not configured on this server (SUPABASE_JWT_SECRET).');
  }
  try {
    const service = createServiceSupabase(connection);
    const rows = unwrap(await service.rpc('api_token_owner', { hash: hashApiToken(token) }), 'API token');
    const owner = rows[0];
    if (!owner) return unauthorized('This API token is not valid: it may have expired or been revoked.');
    const scopes = owner.scopes as ApiScope[];
    if (!scopes.includes(scope)) {
      return apiError(
        403,
        'forbidden',
        `This API token lacks the scope ${scope}. Create one with it in the dashboard.`,
      );
    }
    if (owner.user_type !== 'seller' && owner.user_type !== 'admin') {
      return apiError(403, 'forbidden', 'The seller API is for sellers: this account is not a seller any more.');
    }
    const limit = await apiRateLimitByToken.consume(formWindows(context), [owner.token_id]);
    if (!limit.allowed) {
      return apiError(429, 'rate_limited', 'Too many requests with this token. Please wait a minute and try again.', {
        headers: { 'Retry-After': String(limit.retryAfterSeconds) },
      });
    }
    const accessToken = await accessTokenFor(connection, owner.token_id, owner.user_id);
    const client = bearerSupabase(connection, accessToken, context.get(clientAddressContext));
    return { userId: owner.user_id, tokenId: owner.token_id, isAdmin: owner.user_type === 'admin', scopes, client };
  } catch (thrown) {
    const message = unavailableMessage(thrown);
    if (message === null) throw thrown;
    return apiError(503, 'unavailable', message);
  }
}

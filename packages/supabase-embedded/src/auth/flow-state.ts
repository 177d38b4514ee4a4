/**
 * PKCE flow states: created by `/authorize` and by email flows that carry a
 * code challenge, redeemed once by `POST /token?grant_type=pkce`.
 */
import { createHash } from 'node:crypto';
import { AuthError, badRequest, notFound, validationFailed } from './errors';
import type { AuthService } from './service';
import { signIn } from './sessions';
import type { Json, Queryable } from './users';
import type { PkceParams } from './validation';

export interface FlowStateRow {
  id: string;
  user_id: string | null;
  auth_code: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  provider_type: string;
  authentication_method: string;
  redirect_to: string | null;
  provider_access_token: string | null;
  provider_refresh_token: string | null;
  provider_params: Record<string, string> | null;
  /** Our PKCE verifier and nonce for the real IdP (see google-oidc.ts). */
  idp_checks: unknown;
  auth_code_issued_at: Date | null;
  created_at: Date;
}

export const FLOW_STATE_EXPIRY_SECONDS = 300;

export async function createFlowState(
  db: Queryable,
  input: {
    userId: string | null;
    pkce: PkceParams | null;
    providerType: string;
    authMethod: string;
    redirectTo: string | null;
  },
): Promise<FlowStateRow> {
  const result = await db.query<FlowStateRow>(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge, code_challenge_method, provider_type,
                                  authentication_method, redirect_to)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
    [
      crypto.randomUUID(),
      input.userId,
      crypto.randomUUID(),
      input.pkce?.codeChallenge ?? null,
      input.pkce?.codeChallengeMethod ?? null,
      input.providerType,
      input.authMethod,
      input.redirectTo,
    ],
  );
  return result.rows[0]!;
}

export async function getFlowState(db: Queryable, id: string): Promise<FlowStateRow | null> {
  return (await db.query<FlowStateRow>('select * from auth.flow_state where id = $1', [id])).rows[0] ?? null;
}

/** The newest email flow of a user for an authentication method (what an email link redeems). */
export async function latestFlowStateFor(
  db: Queryable,
  userId: string,
  authMethod: string,
): Promise<FlowStateRow | null> {
  const result = await db.query<FlowStateRow>(
    `select * from auth.flow_state where user_id = $1 and authentication_method = $2 order by created_at desc limit 1`,
    [userId, authMethod],
  );
  return result.rows[0] ?? null;
}

/** Marks the code handed out now (its five minutes start here) and returns it. */
export async function issueAuthCode(
  db: Queryable,
  flowId: string,
  fields: { userId?: string; providerAccessToken?: string; providerRefreshToken?: string | null } = {},
): Promise<string> {
  const result = await db.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), user_id = coalesce($2, user_id),
            provider_access_token = coalesce($3, provider_access_token), provider_refresh_token = coalesce($4, provider_refresh_token)
      where id = $1 returning auth_code`,
    [flowId, fields.userId ?? null, fields.providerAccessToken ?? null, fields.providerRefreshToken ?? null],
  );
  return result.rows[0]!.auth_code;
}

export function challengeMatches(flow: FlowStateRow, verifier: string): boolean {
  if (!flow.code_challenge) return false;
  if ((flow.code_challenge_method ?? 's256').toLowerCase() === 'plain') return flow.code_challenge === verifier;
  return createHash('sha256').update(verifier).digest('base64url') === flow.code_challenge;
}

const AMR_BY_METHOD: Record<string, string> = { oauth: 'oauth' };

/** `POST /token?grant_type=pkce`. */
export async function pkceGrant(
  service: AuthService,
  authCode: string,
  verifier: string,
  request?: Request,
): Promise<Json> {
  if (!authCode || !verifier) {
    throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  }
  const notFoundError = notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
  if (!/^[0-9a-f-]{36}$/i.test(authCode)) throw notFoundError;
  const flow = (await service.db.query<FlowStateRow>('select * from auth.flow_state where auth_code = $1', [authCode]))
    .rows[0];
  if (!flow || !flow.user_id || !flow.auth_code_issued_at) throw notFoundError;
  const startedAt = flow.provider_type === 'email' ? flow.auth_code_issued_at : flow.created_at;
  if (Date.now() - startedAt.getTime() > FLOW_STATE_EXPIRY_SECONDS * 1000) {
    throw new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
  }
  if (!challengeMatches(flow, verifier)) {
    throw badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier');
  }
  await service.db.query('delete from auth.flow_state where id = $1', [flow.id]);
  const extra: Json = {};
  if (flow.provider_type !== 'email') {
    extra.provider = flow.provider_type;
    if (flow.provider_access_token) extra.provider_token = flow.provider_access_token;
    if (flow.provider_refresh_token) extra.provider_refresh_token = flow.provider_refresh_token;
  }
  return signIn(
    service,
    flow.user_id,
    AMR_BY_METHOD[flow.authentication_method] ?? flow.authentication_method,
    extra,
    request,
  );
}

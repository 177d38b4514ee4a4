/** TOTP MFA: `POST /factors`, `/factors/{id}/challenge`, `/factors/{id}/verify`, `DELETE /factors/{id}`. */
import { AuthError, forbidden, notFound, unprocessable, validationFailed } from '../errors';
import { jsonBody, readJson, stringField, isUuid } from '../http';
import { CHALLENGE_EXPIRY_SECONDS, getFactor, listFactors, otpauthUri, qrCodeSvg, type ChallengeRow } from '../mfa';
import type { AuthService } from '../service';
import { downgradeSessionsOfFactor, endSessions, upgradeSession } from '../sessions';
import { authenticate } from '../tokens';
import { newTotpSecret, verifyTotp } from '../totp';

export async function enrollFactor(service: AuthService, request: Request): Promise<Response> {
  const { user, aal } = await authenticate(service, request);
  const body = await readJson(request);
  const factorType = stringField(body, 'factor_type');
  if (factorType !== 'totp') throw validationFailed('factor_type needs to be totp');
  if (!service.config.mfaTotpEnabled)
    throw unprocessable('mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP');
  const factors = await listFactors(service.db, user.id);
  if (factors.some((factor) => factor.status === 'verified') && aal !== 'aal2') {
    throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
  }
  const friendlyName = stringField(body, 'friendly_name');
  if (friendlyName && factors.some((factor) => factor.friendly_name === friendlyName)) {
    throw unprocessable(
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${friendlyName}" for this user already exists`,
    );
  }
  const issuer = stringField(body, 'issuer') || new URL(service.appOrigin()).hostname;
  const account = user.email || user.phone || user.id;
  const secret = newTotpSecret();
  const id = crypto.randomUUID();
  await service.db.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret) values ($1, $2, $3, 'totp', 'unverified', $4)`,
    [id, user.id, friendlyName || null, secret],
  );
  return jsonBody({
    id,
    type: 'totp',
    friendly_name: friendlyName,
    totp: { qr_code: qrCodeSvg(otpauthUri(issuer, account, secret)), secret, uri: otpauthUri(issuer, account, secret) },
  });
}

async function requireFactor(service: AuthService, userId: string, factorId: string) {
  const factor = isUuid(factorId) ? await getFactor(service.db, userId, factorId) : null;
  if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
  return factor;
}

/**
 * Challenges and verifications count per client address and per account: someone holding the
 * password cannot try codes from many addresses at once.
 */
async function authenticateCounted(service: AuthService, request: Request) {
  await service.limits.hit('tokenVerifications', request);
  const authenticated = await authenticate(service, request);
  await service.limits.hitAccount('tokenVerifications', authenticated.user.id);
  return authenticated;
}

export async function challengeFactor(service: AuthService, request: Request, factorId: string): Promise<Response> {
  const { user } = await authenticateCounted(service, request);
  const factor = await requireFactor(service, user.id, factorId);
  const id = crypto.randomUUID();
  const result = await service.db.query<{ created_at: Date }>(
    'insert into auth.mfa_challenges (id, factor_id) values ($1, $2) returning created_at',
    [id, factor.id],
  );
  await service.db.query('update auth.mfa_factors set last_challenged_at = now() where id = $1', [factor.id]);
  const expiresAt = Math.floor(result.rows[0]!.created_at.getTime() / 1000) + CHALLENGE_EXPIRY_SECONDS;
  return jsonBody({ id, type: 'totp', expires_at: expiresAt });
}

export async function verifyFactor(service: AuthService, request: Request, factorId: string): Promise<Response> {
  const { user, sessionId } = await authenticateCounted(service, request);
  const body = await readJson(request);
  const factor = await requireFactor(service, user.id, factorId);
  const challengeId = stringField(body, 'challenge_id');
  const code = stringField(body, 'code');
  if (!code) throw validationFailed('Code needs to be non-empty');
  const challenge = isUuid(challengeId)
    ? (
        await service.db.query<ChallengeRow>('select * from auth.mfa_challenges where id = $1 and factor_id = $2', [
          challengeId,
          factor.id,
        ])
      ).rows[0]
    : undefined;
  if (!challenge) throw notFound('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  if (challenge.verified_at || Date.now() - challenge.created_at.getTime() > CHALLENGE_EXPIRY_SECONDS * 1000) {
    throw unprocessable(
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  if (!verifyTotp(factor.secret, code.trim()))
    throw unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
  if (!sessionId) throw new AuthError(401, 'session_not_found', 'Session from session_id claim in JWT does not exist');
  await service.db.query('update auth.mfa_challenges set verified_at = now() where id = $1', [challenge.id]);
  await service.db.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`, [
    factor.id,
  ]);
  const tokens = await upgradeSession(service, sessionId, 'totp', factor.id);
  // As GoTrue: the user's sessions still below aal2 end, and other unverified TOTP factors go.
  await endSessions(service, `user_id = $1 and aal = 'aal1'`, [user.id]);
  await service.db.query(
    `delete from auth.mfa_factors where user_id = $1 and factor_type = 'totp' and status = 'unverified' and id <> $2`,
    [user.id, factor.id],
  );
  return jsonBody(tokens);
}

export async function unenrollFactor(service: AuthService, request: Request, factorId: string): Promise<Response> {
  const { user, aal } = await authenticate(service, request);
  const factor = await requireFactor(service, user.id, factorId);
  if (factor.status === 'verified' && aal !== 'aal2') {
    throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await service.db.query('delete from auth.mfa_factors where id = $1', [factor.id]);
  // As GoTrue: sessions that reached aal2 with this factor fall back to aal1.
  await downgradeSessionsOfFactor(service.db, factor.id);
  return jsonBody({ id: factor.id });
}

/** Input rules of GoTrue: email format, password policy, PKCE parameters. */
import { AuthError, validationFailed, weakPassword } from './errors';

const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*$/;

/** Returns the lower-cased address or throws 400 `validation_failed`. */
export function validateEmail(email: string): string {
  if (!email) throw validationFailed('An email address is required');
  if (email.length > 255) throw validationFailed('An email address is too long');
  if (!EMAIL.test(email)) throw validationFailed('Unable to validate email address: invalid format');
  return email.toLowerCase();
}

export function validateNewPassword(password: string, minimumLength: number, requiredMessage: string): void {
  if (!password) throw validationFailed(requiredMessage);
  if (password.length > 72) throw validationFailed('Password cannot be longer than 72 characters');
  if ([...password].length < minimumLength) throw weakPassword(minimumLength);
}

export interface PkceParams {
  codeChallenge: string;
  codeChallengeMethod: 's256' | 'plain';
}

/** Both or neither; the challenge 43–128 chars of `[A-Za-z0-9._~-]`; method s256/plain. */
export function parsePkce(challenge: unknown, method: unknown): PkceParams | null {
  const hasChallenge = typeof challenge === 'string' && challenge !== '';
  const hasMethod = typeof method === 'string' && method !== '';
  if (!hasChallenge && !hasMethod) return null;
  if (!hasChallenge || !hasMethod)
    throw validationFailed('PKCE flow requires code_challenge_method and code_challenge');
  if (challenge.length < 43 || challenge.length > 128 || !/^[A-Za-z0-9._~-]+$/.test(challenge)) {
    throw validationFailed('code challenge has to be between 43 and 128 characters');
  }
  const normalized = method.toLowerCase();
  if (normalized !== 's256' && normalized !== 'plain') {
    throw new AuthError(400, 'validation_failed', `code challenge method not supported: ${method}`);
  }
  return { codeChallenge: challenge, codeChallengeMethod: normalized };
}

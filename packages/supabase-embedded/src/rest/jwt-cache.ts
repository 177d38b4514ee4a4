/**
 * Verified JWTs, remembered until they expire: the same access token arrives on every request
 * of a session, and HMAC verification through WebCrypto costs a thread-pool round trip.
 * Only successful verifications are cached; the entry dies at the token's `exp`.
 */
import { errors as joseErrors, type JWTPayload } from 'jose';
import type { Keys } from '../keys';

const MAX_ENTRIES = 2000;

export class JwtCache {
  private readonly entries = new Map<string, { payload: JWTPayload; expiresAt: number }>();

  constructor(private readonly keys: Keys) {}

  async verify(token: string): Promise<JWTPayload> {
    const now = Date.now() / 1000;
    const hit = this.entries.get(token);
    if (hit && hit.expiresAt > now) return hit.payload;
    if (hit) this.entries.delete(token);
    const payload = await this.keys.verify(token);
    if (!acceptedAudience(payload.aud)) {
      throw new joseErrors.JWTClaimValidationFailed('unexpected "aud" claim value', payload, 'aud', 'check_failed');
    }
    if (typeof payload.exp === 'number') {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(token, { payload, expiresAt: payload.exp });
    }
    return payload;
  }
}

/**
 * Tokens of this project's users say `aud: authenticated`; the API keys and signed URLs carry no
 * audience. A token made for another audience with the same secret is refused.
 */
function acceptedAudience(aud: JWTPayload['aud']): boolean {
  if (aud === undefined) return true;
  return Array.isArray(aud) ? aud.includes('authenticated') : aud === 'authenticated';
}

const caches = new WeakMap<Keys, JwtCache>();

/** One cache per key set, shared by the Data API and Storage. */
export function jwtCacheFor(keys: Keys): JwtCache {
  let cache = caches.get(keys);
  if (!cache) {
    cache = new JwtCache(keys);
    caches.set(keys, cache);
  }
  return cache;
}

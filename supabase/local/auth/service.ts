/** What every auth route works with: the database, keys, settings and the public URLs. */
import type { Database } from '../database';
import type { Keys } from '../keys';
import type { AuthConfig } from './config';
import type { AuthRateLimiter } from './rate-limit';

export interface AuthService {
  db: Database;
  keys: Keys;
  config: AuthConfig;
  /** Per-address request limits and the per-account sign-in delay. */
  limits: AuthRateLimiter;
  /** Public origin of the app, e.g. `http://localhost:3000` (the JWT `iss` is `<origin>/auth/v1`). */
  appOrigin(): string;
  /** `<origin>/auth/v1`. */
  authUrl(): string;
}

/** What every auth route works with: the database, keys, settings and the public URLs. */
import type { Database } from '../database';
import type { Keys } from '../keys';
import type { LiveSessions } from '../live-sessions';
import type { AuthConfig } from './config';
import type { AuthRateLimiter } from './rate-limit';
import type { MailDelivery } from './delivery';
import type { GoogleOidc } from './google-oidc';

export interface AuthService {
  db: Database;
  keys: Keys;
  config: AuthConfig;
  /** Told of every session Auth starts or ends, so the Data API and Storage refuse ended ones (ADR 020). */
  sessions: LiveSessions;
  /** Per-address request limits and the per-account sign-in delay. */
  limits: AuthRateLimiter;
  /** Public origin of the app, e.g. `http://localhost:3000` (the JWT `iss` is `<origin>/auth/v1`). */
  appOrigin(): string;
  /** `<origin>/auth/v1`. */
  authUrl(): string;
  /** Sends (SMTP) or logs every email after it is stored in the outbox. */
  mail: MailDelivery;
  /**
   * Development tools (ENABLE_DEV_TOOLS): the open outbox and the stand-in Google page under
   * `/_local/*`. Off in production, where those paths answer 404.
   */
  devTools: boolean;
  /** The real Google client when one is configured; else only the stand-in (with devTools). */
  google: GoogleOidc | null;
}

/** "Continue with Google" works: a real client is configured, or the development stand-in is on. */
export const googleAvailable = (service: AuthService) =>
  service.config.googleEnabled && (service.google !== null || service.devTools);

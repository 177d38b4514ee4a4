/**
 * The embedded backend's second public entry point: the small pieces the app uses the same way
 * the backend does, so that both follow one rule. `index.ts` is the backend itself; nothing
 * else under `packages/supabase-embedded/src/` is for the app to import.
 *
 * - Fixed windows: the counter behind every rate limit (the backend's per-address Auth limits,
 *   the app's form limits), and the delay that grows with failed sign-ins.
 * - SMTP sending: the one mailer of Auth's emails and the app's product emails.
 * - The served origin: which origin links are built on when none is configured.
 * - Image magic bytes: what an uploaded image really is (Storage and the app's forms).
 * - The embedded backend's own API (a backup), which the app calls in process.
 * - HS256 signing of access tokens (the seller API on hosted Supabase, with its JWT secret).
 */
export {
  FIRST_DELAY_MS,
  MAX_DELAY_MS,
  memoryWindows,
  progressiveDelay,
  secondsUntilReset,
  storedKey,
  systemClock,
  type FixedWindow,
  type FixedWindows,
  type RateLimitClock,
} from './fixed-window';
export type { SmtpConfig } from './auth/config';
export { createSmtpSender, type SmtpSender } from './auth/delivery';
export { servedOrigin } from './public-origin';
export { detectImageKind, IMAGE_CONTENT_TYPES, isZip, type ImageKind } from './storage/image-kind';
export { BACKUP_PATH } from './embedded-api';
export { hs256Signer } from './keys';

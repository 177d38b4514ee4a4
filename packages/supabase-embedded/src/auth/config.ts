/**
 * Auth settings: `supabase/config.toml` `[auth]` (the Supabase CLI's keys), GoTrue's defaults
 * where the file or a key is missing, then programmatic overrides (tests).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { DEFAULT_RATE_LIMITS, type AuthRateLimits } from './rate-limit';

export interface AuthConfig {
  /** `[auth] site_url`; the app origin (`context.siteUrl()`) is always allowed as well. */
  siteUrl: string | null;
  additionalRedirectUrls: string[];
  /** Access-token lifetime in seconds. */
  jwtExpiry: number;
  enableSignup: boolean;
  enableAnonymousSignIns: boolean;
  minimumPasswordLength: number;
  enableRefreshTokenRotation: boolean;
  /** Seconds a revoked refresh token may still be exchanged (CLI default 10). */
  refreshTokenReuseInterval: number;
  emailProviderEnabled: boolean;
  /** `[auth.email] enable_confirmations`: false = auto-confirm (the CLI default). */
  enableConfirmations: boolean;
  /** Minimum seconds between two emails to the same user (`[auth.email] max_frequency`). */
  emailMaxFrequency: number;
  /** Validity of email links and codes, in seconds. */
  otpExpiry: number;
  otpLength: number;
  /**
   * `[auth.email] secure_password_change`: a password change through `PUT /user` needs the current
   * password or a nonce from `GET /reauthenticate`, except in a recovery session.
   */
  securePasswordChange: boolean;
  googleEnabled: boolean;
  mfaTotpEnabled: boolean;
  /** `[auth.rate_limit]` (per client address) and the per-account sign-in delay threshold. */
  rateLimits: AuthRateLimits;
  /** A real Google OAuth client (`[auth.external.google]` client_id/secret, or GOOGLE_* env); null = none. */
  googleClient: GoogleClientConfig | null;
  /** SMTP delivery (`[auth.email.smtp]`, or SMTP_URL); null = emails go to the server log. */
  smtp: SmtpConfig | null;
}

/** Programmatic overrides (tests, environment): any setting, and any single rate limit. */
export type AuthConfigOverrides = Partial<Omit<AuthConfig, 'rateLimits'>> & { rateLimits?: Partial<AuthRateLimits> };

export interface GoogleClientConfig {
  clientId: string;
  clientSecret: string;
  /** OpenID Connect issuer; Google's unless a test points it at a local mock IdP. */
  issuer: string;
}

export interface SmtpConfig {
  /** A nodemailer connection URL, e.g. `smtp://user:pass@host:587` (`smtps://` for port 465). */
  url: string;
  /** The From header, e.g. `"AgentMarket" <no-reply@example.com>`. */
  from: string;
}

export const GOOGLE_ISSUER_URL = 'https://accounts.google.com';

export const DEFAULT_AUTH_CONFIG: AuthConfig = {
  siteUrl: null,
  additionalRedirectUrls: [],
  jwtExpiry: 3600,
  enableSignup: true,
  enableAnonymousSignIns: false,
  minimumPasswordLength: 6,
  enableRefreshTokenRotation: true,
  refreshTokenReuseInterval: 10,
  emailProviderEnabled: true,
  enableConfirmations: false,
  emailMaxFrequency: 60,
  otpExpiry: 86_400,
  otpLength: 6,
  securePasswordChange: false,
  googleEnabled: true,
  mfaTotpEnabled: true,
  rateLimits: DEFAULT_RATE_LIMITS,
  googleClient: null,
  smtp: null,
};

type Table = Record<string, unknown>;

export function loadAuthConfig(supabaseDir: string, overrides: AuthConfigOverrides = {}): AuthConfig {
  const file = path.join(supabaseDir, 'config.toml');
  const fromFile = existsSync(file) ? fromToml(parse(readFileSync(file, 'utf8')) as Table) : {};
  const rateLimits = { ...DEFAULT_RATE_LIMITS, ...fromFile.rateLimits, ...overrides.rateLimits };
  return { ...DEFAULT_AUTH_CONFIG, ...fromFile, ...overrides, rateLimits };
}

function fromToml(root: Table): Partial<AuthConfig> {
  const auth = table(root.auth);
  const email = table(auth.email);
  const google = table(table(auth.external).google);
  const totp = table(table(auth.mfa).totp);
  const result: Partial<AuthConfig> = {};
  const set = <K extends keyof AuthConfig>(key: K, value: AuthConfig[K] | undefined) => {
    if (value !== undefined) result[key] = value;
  };
  set('siteUrl', str(auth.site_url));
  set(
    'additionalRedirectUrls',
    Array.isArray(auth.additional_redirect_urls)
      ? auth.additional_redirect_urls.filter((url): url is string => typeof url === 'string')
      : undefined,
  );
  set('jwtExpiry', num(auth.jwt_expiry));
  set('enableSignup', bool(auth.enable_signup));
  set('enableAnonymousSignIns', bool(auth.enable_anonymous_sign_ins));
  set('minimumPasswordLength', num(auth.minimum_password_length));
  set('enableRefreshTokenRotation', bool(auth.enable_refresh_token_rotation));
  set('refreshTokenReuseInterval', num(auth.refresh_token_reuse_interval));
  set('emailProviderEnabled', bool(email.enable_signup));
  set('enableConfirmations', bool(email.enable_confirmations));
  set('emailMaxFrequency', duration(email.max_frequency));
  set('otpExpiry', num(email.otp_expiry));
  set('otpLength', num(email.otp_length));
  set('securePasswordChange', bool(email.secure_password_change));
  set('googleEnabled', bool(google.enabled));
  const clientId = envStr(google.client_id);
  const clientSecret = envStr(google.secret);
  if (clientId && clientSecret) set('googleClient', { clientId, clientSecret, issuer: GOOGLE_ISSUER_URL });
  set('smtp', smtpFromToml(table(email.smtp)));
  const totpEnrol = bool(totp.enroll_enabled);
  const totpVerify = bool(totp.verify_enabled);
  if (totpEnrol !== undefined || totpVerify !== undefined)
    set('mfaTotpEnabled', totpEnrol !== false && totpVerify !== false);
  const limits = table(auth.rate_limit);
  const rateLimits: Partial<AuthRateLimits> = {};
  const limit = (key: keyof AuthRateLimits, value: unknown) => {
    const count = num(value);
    if (count !== undefined && count >= 0) rateLimits[key] = count;
  };
  limit('emailSent', limits.email_sent);
  limit('anonymousUsers', limits.anonymous_users);
  limit('tokenRefresh', limits.token_refresh);
  limit('signInSignUps', limits.sign_in_sign_ups);
  limit('tokenVerifications', limits.token_verifications);
  result.rateLimits = { ...DEFAULT_RATE_LIMITS, ...rateLimits };
  return result;
}

/** `[auth.email.smtp]` with the CLI's keys; `enabled = false` or a missing host/sender = not configured. */
function smtpFromToml(smtp: Table): SmtpConfig | undefined {
  const host = envStr(smtp.host);
  const sender = envStr(smtp.admin_email);
  if (bool(smtp.enabled) === false || !host || !sender) return undefined;
  const port = num(smtp.port) ?? Number(envStr(smtp.port) ?? 587);
  const user = envStr(smtp.user);
  const pass = envStr(smtp.pass);
  const auth = user ? `${encodeURIComponent(user)}${pass ? `:${encodeURIComponent(pass)}` : ''}@` : '';
  const name = envStr(smtp.sender_name);
  return {
    url: `${port === 465 ? 'smtps' : 'smtp'}://${auth}${host}:${port}`,
    from: name ? `"${name.replace(/["\\]/g, '')}" <${sender}>` : sender,
  };
}

/** A string value with `env(NAME)` resolved as the Supabase CLI does; unset or empty = undefined. */
export function envStr(value: unknown): string | undefined {
  const raw = str(value);
  const reference = raw && /^env\(([A-Za-z_][A-Za-z0-9_]*)\)$/.exec(raw.trim());
  if (!reference) return raw;
  return process.env[reference[1]!]?.trim() || undefined;
}

function table(value: unknown): Table {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : {};
}
function str(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
function num(value: unknown): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** Go-style durations as the CLI writes them: "1s", "60s", "1m30s", "1h". */
export function duration(value: unknown): number | undefined {
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string') return undefined;
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)];
  if (!parts.length || parts.map((part) => part[0]).join('') !== value.trim()) return undefined;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  return parts.reduce((total, part) => total + Number(part[1]) * (unit[part[2]!] ?? 0), 0);
}
